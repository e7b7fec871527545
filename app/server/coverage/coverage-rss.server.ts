import { liveMessages } from "~/lib/messages";
import { pathOf, truncate } from "~/lib/news";
import { absoluteUrl } from "~/lib/seo";
import { updateAnchor } from "~/lib/live-coverage";
import type { DB } from "~/server/db/db.server";
import { buildRss } from "~/server/feeds/rss.server";
import { readCoverage } from "./coverage-read.server";

/** The RSS of a published story's live updates, newest first, each linking to its anchor; null when there is none. */
export async function coverageRssXml(db: DB, baseUrl: string, articleId: string): Promise<string | null> {
  const story = await db
    .selectFrom("news")
    .select(["id", "title", "slug"])
    .where("id", "=", articleId)
    .where("status", "=", "published")
    .executeTakeFirst();
  if (!story) return null;
  const { coverage, updates } = await readCoverage(db, articleId);
  if (!coverage) return null;
  const link = absoluteUrl(baseUrl, pathOf(story));
  const newestFirst = [...updates].sort((a, b) => b.createdAt.localeCompare(a.createdAt));
  return buildRss(
    {
      title: liveMessages.rssTitle(story.title),
      link,
      description: coverage.summary ?? story.title,
      selfUrl: absoluteUrl(baseUrl, `/news/${encodeURIComponent(story.id)}/live.xml`),
      language: "ar",
    },
    newestFirst.map((update) => ({
      title: truncate(update.text.split("\n")[0] ?? "", 100),
      link: `${link}#${updateAnchor(update.id)}`,
      description: update.text,
      publishedAt: update.createdAt,
      category: liveMessages.liveCoverage,
      image: null,
      creator: update.authorName,
    })),
  );
}
