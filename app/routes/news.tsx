import { redirect } from "react-router";
import { categoryLabel, categoryPath } from "~/lib/categories";
import { formatDateTime } from "~/lib/dates";
import { messages, liveMessages } from "~/lib/messages";
import { lastUpdateAfterPublication, pathOf, shownTime, wirePath } from "~/lib/news";
import { summaryText } from "~/lib/story-fields";
import { Standfirst } from "~/components/article-share-fields";
import { RichText } from "~/components/rich-text";
import { isEditor } from "~/lib/permissions";
import { absoluteUrl, pageMeta, siteMetaOf } from "~/lib/seo";
import { breadcrumbJsonLd, liveBlogJsonLd, newsArticleJsonLd } from "~/lib/structured-data";
import { ArticleImages, ArticleVideo } from "~/components/article-media";
import { EyeIcon, ClockIcon } from "~/components/icons";
import { CopyShortLinkButton, DeleteArticleButton, EditArticleLink, LiveDeskLink } from "~/components/admin-actions";
import { CategoryBadge, NewsCard, SectionHeading } from "~/components/news-card";
import { Sidebar } from "~/components/news-lists";
import { NewsletterForm } from "~/components/newsletter-form";
import { ShareBar } from "~/components/share-bar";
import { LastUpdate } from "~/components/last-update";
import { Byline } from "~/components/byline";
import { ArticleVisit } from "~/components/visit-counters";
import { EDITORS, PUBLIC } from "~/lib/audience";
import { PreviewNotice } from "~/components/preview-notice";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { pageError } from "~/server/http/page-error.server";
import { articleNotFound } from "~/server/news/ownership.server";
import { readArticle } from "~/server/news/articles-read.server";
import { picksBeside, relatedTo, sidebarLists } from "~/server/news/reader-lists.server";
import { SHARE_TEXT_LENGTH } from "~/lib/constants";
import { shareImageFor } from "~/server/news/share-image.server";
import { focalPointsOf } from "~/server/news/media-library.server";
import { siteContext } from "~/server/site/request-context.server";
import { topicsOfArticle } from "~/server/news/topics.server";
import { TopicLinks } from "~/components/topic-links";
import { LiveCoverage } from "~/components/live-coverage/live-updates";
import { readLiveCoverage } from "~/server/coverage/coverage-read.server";
import type { Route } from "./+types/news";

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const database = site.db;
  const user = await getCurrentUser(site.auth, request);
  // Readers and editors read the published article alike; an editor opening one that is not published gets its preview (decision 031).
  const [published, topics] = await Promise.all([
    readArticle(database, params.id, PUBLIC),
    topicsOfArticle(database, params.id),
  ]);
  const read = published ?? (isEditor(user) ? await readArticle(database, params.id, EDITORS) : null);
  if (!read) throw pageError(articleNotFound());
  const { article, shortId } = read;
  // `/news/{id}`, and any slug but its own, lead to the article's readable address (decision 033).
  if ((params.slug ?? null) !== article.slug) throw redirect(`${wirePath(pathOf(article))}${url.search}`, 301);
  const [sidebar, picks, related, focus, live] = await Promise.all([
    sidebarLists(database, site.readCache),
    picksBeside(database, site.readCache, { ...article, topics }),
    relatedTo(database, site.readCache, { ...article, topics }),
    focalPointsOf(database, article.images),
    readLiveCoverage(database, article.id),
  ]);
  const updated = url.searchParams.get("updated") === "1";
  const shareImage = await shareImageFor(site.media, article);
  const description = summaryText(
    { standfirst: article.story.standfirst, content: article.content },
    SHARE_TEXT_LENGTH,
  );
  const share = {
    url: absoluteUrl(site.config.baseUrl, shortId ? `/${shortId}` : pathOf(article)),
    isShortLink: shortId !== null,
    title: article.story.shareTitle ?? article.title,
    text: article.story.shareDescription ?? description,
  };
  const canonical = absoluteUrl(site.config.baseUrl, pathOf(article));
  return {
    article,
    shortId,
    share,
    description,
    sidebar,
    picks,
    related,
    isAdmin: isEditor(user),
    updated,
    shareImage,
    topics,
    focus: Object.fromEntries(focus),
    live,
    canonical,
  };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  if (!loaderData)
    return [
      { title: `${messages.newsNotFound} | ${siteMetaOf(matches).site.name}` },
      { name: "robots", content: "noindex" },
    ];
  const { article, shortId, description, shareImage, topics, live } = loaderData;
  const { baseUrl, site } = siteMetaOf(matches);
  return [
    ...pageMeta({
      baseUrl,
      site,
      path: pathOf(article),
      title: `${article.title} | ${site.name}`,
      description,
      type: "article",
      image: shareImage ? { ...shareImage, alt: article.story.shareTitle ?? article.title } : undefined,
      noindex: article.status !== "published" || article.story.noindex,
      share: { title: article.story.shareTitle, description: article.story.shareDescription },
    }),
    { property: "article:published_time", content: shownTime(article) },
    { property: "article:modified_time", content: lastUpdateAfterPublication(article) ?? shownTime(article) },
    { property: "article:section", content: categoryLabel(article.category) },
    ...(shortId ? [{ tagName: "link", rel: "shortlink", href: absoluteUrl(baseUrl, `/${shortId}`) }] : []),
    {
      "script:ld+json": liveBlogJsonLd(
        newsArticleJsonLd(baseUrl, site, article, shareImage, description, topics),
        baseUrl,
        article,
        live,
      ),
    },
    ...(live.coverage
      ? [
          {
            tagName: "link",
            rel: "alternate",
            type: "application/rss+xml",
            title: liveMessages.rssTitle(article.title),
            href: absoluteUrl(baseUrl, `/news/${encodeURIComponent(article.id)}/live.xml`),
          },
        ]
      : []),
    { "script:ld+json": breadcrumbJsonLd(baseUrl, article) },
  ];
}

const adminButton = "rounded border border-stone-300 bg-white px-3 py-1 text-sm font-bold hover:bg-stone-50";

export default function NewsPage({ loaderData }: Route.ComponentProps) {
  const { article, shortId, share, sidebar, picks, related, isAdmin, updated, topics, live } = loaderData;
  return (
    <div className="grid gap-8 lg:grid-cols-3">
      {article.status === "published" && !isAdmin && <ArticleVisit id={article.id} />}
      <article className="lg:col-span-2" aria-labelledby="article-title">
        {article.status !== "published" && <PreviewNotice status={article.status} />}
        {updated && isAdmin && (
          <p role="status" className="mb-4 rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800">
            {messages.updateSucceeded}
          </p>
        )}
        <header className="flex flex-col gap-3">
          <div className="flex flex-wrap items-center gap-2">
            <a
              href={categoryPath(article.category)}
              className="inline-block"
              aria-label={categoryLabel(article.category)}
            >
              <CategoryBadge category={article.category} />
            </a>
          </div>
          <h1 id="article-title" className="text-2xl leading-snug font-bold sm:text-4xl">
            {article.title}
          </h1>
          <Standfirst text={article.story.standfirst} />
          <div className="flex flex-wrap items-center gap-x-5 gap-y-2 text-sm text-stone-600">
            <Byline credit={article.credit} />
            <span className="inline-flex items-center gap-1">
              <ClockIcon />
              <time dateTime={shownTime(article)}>{formatDateTime(shownTime(article))}</time>
            </span>
            <LastUpdate article={article} />
            <span className="inline-flex items-center gap-1" data-testid="visit-count">
              <EyeIcon />
              {`${article.visits.toLocaleString("ar-LB")} ${messages.visits}`}
            </span>
          </div>
          <ShareBar {...share} />
          {isAdmin && (
            <div
              className="flex flex-wrap gap-2 rounded bg-stone-100 p-2"
              role="group"
              aria-label={messages.adminTools}
              data-testid="admin-tools"
            >
              <EditArticleLink id={article.id} className={adminButton} />
              <LiveDeskLink id={article.id} className={adminButton} />
              <CopyShortLinkButton shortId={shortId} className={adminButton} />
              <DeleteArticleButton
                id={article.id}
                confirmText={messages.confirmDeleteArticle}
                redirectTo="/"
                className={`${adminButton} text-brand-700`}
              />
            </div>
          )}
        </header>
        {live.coverage && (
          <LiveCoverage
            articleId={article.id}
            url={loaderData.canonical}
            title={article.title}
            eventId={live.eventId}
            coverage={live.coverage}
            updates={live.updates}
          />
        )}
        <div className="mt-6 space-y-4">
          <ArticleImages
            images={article.imageUrl ? [...article.images, article.imageUrl] : article.images}
            details={article.imageDetails}
            title={article.title}
            focus={loaderData.focus}
          />
          <ArticleVideo url={article.video} title={article.title} poster={article.videoPoster} />
        </div>
        <div className="rich-text mt-6 text-lg" data-testid="article-content">
          <RichText document={article.body} />
        </div>
        <TopicLinks topics={topics} />
        <div className="mt-10 rounded-lg bg-stone-50 p-4 ring-1 ring-stone-200 sm:p-6">
          <NewsletterForm place="article" />
        </div>
        {related.length > 0 && (
          <section className="mt-10" aria-labelledby="related-heading">
            <SectionHeading id="related-heading" title={messages.relatedNews} />
            <div className="grid gap-4 sm:grid-cols-2" data-testid="related-news">
              {related.map((item) => (
                <NewsCard key={item.id} item={item} />
              ))}
            </div>
          </section>
        )}
        {picks.length > 0 && (
          <section className="mt-10" aria-labelledby="picks-heading">
            <SectionHeading id="picks-heading" title={messages.picks} />
            <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="picks">
              {picks.map((item) => (
                <NewsCard key={item.id} item={item} showExcerpt={false} />
              ))}
            </div>
          </section>
        )}
      </article>
      <Sidebar {...sidebar} />
    </div>
  );
}
