import { CopyShortLinkButton, DeleteArticleButton } from "~/components/admin-actions";
import { AlertBell, MenuAlertBell, TickerAlertBell } from "~/components/alert-bell/alert-bell";
import { BreakingList } from "~/components/breaking/list";
import { BreakingTicker } from "~/components/breaking/ticker";
import { CategoryMoreCards, CategoryPages } from "~/components/category-list";
import { LiveCoverage } from "~/components/live-coverage/live-updates";
import { LatestRefresh } from "~/components/news-lists";
import { ScrollToTop } from "~/components/scroll-to-top";
import { ShareBar } from "~/components/share-bar";
import { Slider } from "~/components/slider";
import { ArticleVisit, SiteVisit } from "~/components/visit-counters";
import { YoutubeFacade } from "~/components/youtube-facade";
import type { IslandDefinition } from "./island";

/** Every island, so that app/islands.client.tsx can hydrate each by the name the server wrote. */
export const ISLANDS: IslandDefinition[] = [
  AlertBell,
  MenuAlertBell,
  TickerAlertBell,
  ArticleVisit,
  BreakingList,
  BreakingTicker,
  CategoryMoreCards,
  CategoryPages,
  CopyShortLinkButton,
  DeleteArticleButton,
  LatestRefresh,
  LiveCoverage,
  ScrollToTop,
  ShareBar,
  SiteVisit,
  Slider,
  YoutubeFacade,
];
