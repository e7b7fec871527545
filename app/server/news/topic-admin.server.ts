import { topicMessages } from "~/lib/newsroom-messages";
import { cleanTopicName, topicKey, topicNameProblem, topicSlug, type Topic } from "~/lib/topics";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import { recordSiteEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import { AppError } from "~/server/platform/app-error.server";
import { createTopic } from "./topics.server";

/*
 * The admins' screen of topics (decision 032): creating, describing, renaming, merging and deleting
 * them. A rename or merge keeps the old address as a redirect; every change writes an outbox event, so
 * every process empties its caches (the topic page, the articles' links, the feeds and sitemaps).
 */

export type TopicRow = Topic & { description: string | null; articles: number };

const topicGone = () => new AppError("not-found", { message: topicMessages.topicNotFound });

/** Every topic with how many articles (any status but the trash) carry it, by name. */
export async function listTopicsWithCounts(db: DB): Promise<TopicRow[]> {
  const rows = await db
    .selectFrom("topics")
    .select(["topics.id", "topics.name", "topics.slug", "topics.description"])
    .select((eb) =>
      eb
        .selectFrom("news_topics")
        .innerJoin("news", "news.id", "news_topics.news_id")
        .select(eb.fn.countAll<number>().as("n"))
        .whereRef("news_topics.topic_id", "=", "topics.id")
        .where("news.status", "!=", "trashed")
        .as("articles"),
    )
    .orderBy("topics.name")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    articles: Number(row.articles ?? 0),
  }));
}

async function lockedTopic(trx: DB, id: string): Promise<Topic> {
  const row = await trx
    .selectFrom("topics")
    .select(["id", "name", "slug"])
    .where("id", "=", id)
    .$if(dialectName(trx) === "postgres", (query) => query.forUpdate())
    .executeTakeFirst();
  if (!row) throw topicGone();
  return row;
}

/** Keeps `slug` as an address of `topicId` (a slug another topic has is never one). */
async function keepRedirect(trx: DB, slug: string, topicId: string): Promise<void> {
  await trx.deleteFrom("topic_redirects").where("slug", "=", slug).execute();
  await trx.insertInto("topic_redirects").values({ slug, topic_id: topicId }).execute();
}

function checkedName(rawName: string): string {
  const name = cleanTopicName(rawName);
  const problem = topicNameProblem(name);
  if (problem) throw new AppError("validation", { message: problem, fields: { name: problem } });
  return name;
}

/** Creates a topic with its slug from its name, as a story's form does; refused when one of that name exists. */
export async function createNamedTopic(
  db: DB,
  rawName: string,
  description: string | null,
  now = new Date(),
): Promise<Topic> {
  const name = checkedName(rawName);
  return writeWithEvents(db, async (trx) => {
    const taken = await trx.selectFrom("topics").select("id").where("key", "=", topicKey(name)).executeTakeFirst();
    if (taken)
      throw new AppError("conflict", { message: topicMessages.nameExists, fields: { name: topicMessages.nameExists } });
    const id = await createTopic(trx, name, now.toISOString());
    if (description !== null) await trx.updateTable("topics").set({ description }).where("id", "=", id).execute();
    await recordSiteEvent(trx, "topics-changed");
    return { id, name, slug: topicSlug(name) };
  });
}

/** Sets a topic's description (null clears it). */
export async function describeTopic(db: DB, id: string, description: string | null, now = new Date()): Promise<Topic> {
  return writeWithEvents(db, async (trx) => {
    const topic = await lockedTopic(trx, id);
    await trx.updateTable("topics").set({ description, updated_at: now.toISOString() }).where("id", "=", id).execute();
    await recordSiteEvent(trx, "topics-changed");
    return topic;
  });
}

/** Deletes a topic: the stories that carried it lose it, and its page and old addresses answer 404. */
export async function deleteTopic(db: DB, id: string): Promise<Topic> {
  return writeWithEvents(db, async (trx) => {
    const topic = await lockedTopic(trx, id);
    // Its links to stories and its old addresses go with it (both cascade).
    await trx.deleteFrom("topics").where("id", "=", id).execute();
    await recordSiteEvent(trx, "topics-changed");
    return topic;
  });
}

/**
 * Renames a topic: its new name gives it a new slug, the old one kept as a redirect. Refused when the
 * name is not one a topic may have, or names another topic (merge them instead).
 */
export async function renameTopic(db: DB, id: string, rawName: string, now = new Date()): Promise<Topic> {
  const name = checkedName(rawName);
  return writeWithEvents(db, async (trx) => {
    const topic = await lockedTopic(trx, id);
    const key = topicKey(name);
    const other = await trx
      .selectFrom("topics")
      .select("id")
      .where("key", "=", key)
      .where("id", "!=", id)
      .executeTakeFirst();
    if (other)
      throw new AppError("conflict", { message: topicMessages.nameTaken, fields: { name: topicMessages.nameTaken } });
    const slug = topicSlug(name);
    if (slug !== topic.slug) {
      await trx.deleteFrom("topic_redirects").where("slug", "=", slug).execute();
      await keepRedirect(trx, topic.slug, id);
    }
    await trx
      .updateTable("topics")
      .set({ name, slug, key, updated_at: now.toISOString() })
      .where("id", "=", id)
      .execute();
    await recordSiteEvent(trx, "topics-changed");
    return { id, name, slug };
  });
}

/**
 * Merges topic `fromId` into `intoId`: its articles carry `intoId` instead (once, in the place the
 * earlier of the two had), its addresses lead to `intoId`'s, and it is gone.
 */
export async function mergeTopics(db: DB, fromId: string, intoId: string): Promise<Topic> {
  if (fromId === intoId)
    throw new AppError("validation", { message: topicMessages.mergeSame, fields: { into: topicMessages.mergeSame } });
  return writeWithEvents(db, async (trx) => {
    const from = await lockedTopic(trx, fromId);
    const into = await lockedTopic(trx, intoId);
    const links = await trx
      .selectFrom("news_topics")
      .select(["news_id", "position"])
      .where("topic_id", "=", fromId)
      .execute();
    for (const link of links) {
      const existing = await trx
        .selectFrom("news_topics")
        .select("position")
        .where("news_id", "=", link.news_id)
        .where("topic_id", "=", intoId)
        .executeTakeFirst();
      if (!existing) {
        await trx
          .insertInto("news_topics")
          .values({ news_id: link.news_id, topic_id: intoId, position: link.position })
          .execute();
      } else if (link.position < existing.position) {
        await trx
          .updateTable("news_topics")
          .set({ position: link.position })
          .where("news_id", "=", link.news_id)
          .where("topic_id", "=", intoId)
          .execute();
      }
    }
    await trx.updateTable("topic_redirects").set({ topic_id: intoId }).where("topic_id", "=", fromId).execute();
    await keepRedirect(trx, from.slug, intoId);
    // Its links go with it (news_topics cascades).
    await trx.deleteFrom("topics").where("id", "=", fromId).execute();
    await recordSiteEvent(trx, "topics-changed");
    return into;
  });
}
