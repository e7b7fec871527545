import type { NewsSummary } from "~/lib/news";
import { topicMessages } from "~/lib/newsroom-messages";
import type { Topic } from "~/lib/topics";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { findTopicBySlug, listTopicPage } from "./topics.server";

export const topicNotFound = () => new AppError("not-found", { message: topicMessages.topicNotFound });

/** One page of the topic at its own slug; not-found for an address that is not its own (the page route redirects those). */
export async function topicPageBySlug(
  db: DB,
  slug: string,
  page: number,
  pageSize: number,
): Promise<{ items: NewsSummary[]; page: number; hasMore: boolean }> {
  const found = await findTopicBySlug(db, slug);
  if (found?.kind !== "topic") throw topicNotFound();
  return { ...(await listTopicPage(db, found.topic.id, page, pageSize)), page };
}

export type TopicPage =
  | {
      kind: "page";
      topic: Topic & { description: string | null };
      page: number;
      items: NewsSummary[];
      hasMore: boolean;
    }
  | { kind: "moved"; slug: string };

/** The topic page's content, or where the topic lives now; null when no topic has this address. */
export async function readTopicPage(db: DB, slug: string, page: number, pageSize: number): Promise<TopicPage | null> {
  const found = await findTopicBySlug(db, slug);
  if (!found) return null;
  if (found.kind === "moved") return found;
  return { kind: "page", topic: found.topic, page, ...(await listTopicPage(db, found.topic.id, page, pageSize)) };
}
