import { redirect } from "react-router";
import { CATEGORY_PAGE_SIZE } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { topicMessages } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { pageFromUrl } from "~/lib/pagination";
import { topicFeedPath, topicPath } from "~/lib/topics";
import { wirePath } from "~/lib/news";
import { CategoryList } from "~/components/category-list";
import { pageError } from "~/server/http/page-error.server";
import { readTopicPage, topicNotFound } from "~/server/news/topic-page.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/topic";

/**
 * A topic's published articles, like a category's page (6, 'المزيد', ?page=N), the same for everyone.
 * An old address (a rename, a merge, another spelling) answers 301 with the topic's own.
 */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const page = pageFromUrl(url);
  const read = await readTopicPage(site.db, params.slug, page, CATEGORY_PAGE_SIZE);
  if (!read) throw pageError(topicNotFound());
  if (read.kind === "moved") throw redirect(wirePath(`${topicPath(read.slug)}${url.search}`), 301);
  return read;
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  if (!loaderData)
    return [
      { title: `${topicMessages.topicNotFound} | ${siteOf(matches).name}` },
      { name: "robots", content: "noindex" },
    ];
  const { topic, page } = loaderData;
  const path = topicPath(topic.slug);
  const paged = page > 1;
  return [
    ...pageMeta({
      ...siteMetaOf(matches),
      path: paged ? `${path}?page=${page}` : path,
      title: `${topic.name}${paged ? ` - ${messages.page} ${page}` : ""} | ${siteOf(matches).name}`,
      description: topic.description ?? `${topicMessages.pageDescription} ${topic.name} - ${siteOf(matches).name}`,
    }),
    {
      tagName: "link",
      rel: "alternate",
      type: "application/rss+xml",
      title: topic.name,
      href: topicFeedPath(topic.slug),
    },
  ];
}

export default function TopicPage({ loaderData }: Route.ComponentProps) {
  const { topic, page, items, hasMore } = loaderData;
  return (
    <section aria-labelledby="topic-title">
      <h1 id="topic-title" className="mb-6 border-s-4 border-brand-600 ps-3 text-3xl font-bold">
        {topic.name}
      </h1>
      {topic.description && (
        <p className="-mt-3 mb-6 text-stone-600" data-testid="topic-description">
          {topic.description}
        </p>
      )}
      <CategoryList
        path={topicPath(topic.slug)}
        moreApi={`/api/latest?topic=${encodeURIComponent(topic.slug)}`}
        page={page}
        items={items}
        hasMore={hasMore}
      />
    </section>
  );
}
