import type { IslandDefinition } from "./island";

type IslandLoader = () => Promise<IslandDefinition>;

/**
 * Every island by the name the server writes, each loaded only on a page that has it: a live story's
 * coverage, a video's player and the editors' buttons cost nothing on the pages without them.
 */
export const ISLANDS: Record<string, IslandLoader> = {
  bell: () => import("~/components/alert-bell/alert-bell").then(({ AlertBell }) => AlertBell),
  "bell-ticker": () => import("~/components/alert-bell/alert-bell").then(({ TickerAlertBell }) => TickerAlertBell),
  "bell-menu": () => import("~/components/alert-bell/alert-bell").then(({ MenuAlertBell }) => MenuAlertBell),
  "article-visit": () => import("~/components/visit-counters").then(({ ArticleVisit }) => ArticleVisit),
  "site-visit": () => import("~/components/visit-counters").then(({ SiteVisit }) => SiteVisit),
  "breaking-list": () => import("~/components/breaking/list").then(({ BreakingList }) => BreakingList),
  "breaking-ticker": () => import("~/components/breaking/ticker").then(({ BreakingTicker }) => BreakingTicker),
  "category-more-cards": () => import("~/components/category-list").then(({ CategoryMoreCards }) => CategoryMoreCards),
  "category-pages": () => import("~/components/category-list").then(({ CategoryPages }) => CategoryPages),
  "copy-short-link": () => import("~/components/admin-actions").then(({ CopyShortLinkButton }) => CopyShortLinkButton),
  "delete-article": () => import("~/components/admin-actions").then(({ DeleteArticleButton }) => DeleteArticleButton),
  "latest-refresh": () => import("~/components/news-lists").then(({ LatestRefresh }) => LatestRefresh),
  "live-coverage": () => import("~/components/live-coverage/live-updates").then(({ LiveCoverage }) => LiveCoverage),
  "scroll-to-top": () => import("~/components/scroll-to-top").then(({ ScrollToTop }) => ScrollToTop),
  "share-bar": () => import("~/components/share-bar").then(({ ShareBar }) => ShareBar),
  slider: () => import("~/components/slider").then(({ Slider }) => Slider),
  "youtube-facade": () => import("~/components/youtube-facade").then(({ YoutubeFacade }) => YoutubeFacade),
};

/**
 * Islands a reader may never touch, hydrated once the browser is idle after the others: the bell
 * only shows its button until it is opened, and its panel's code loads then.
 */
export const IDLE_ISLANDS: ReadonlySet<string> = new Set(["bell", "bell-ticker", "bell-menu"]);
