import { parseImageDetails, type ImageDetailsMap } from "~/lib/image-details";
import { parseStringList } from "~/lib/json";
import { documentImages, storedBody, type RichDocument } from "~/lib/rich-text/document";
import type { DB } from "~/server/db/db.server";
import type { RevisionKind } from "~/server/db/schema";
import { storedTopicNames } from "./topics.server";
import type { StoryFields } from "~/lib/story-fields";
import { STORY_COLUMNS, storyOfRow } from "./story-fields.server";

/*
 * Revisions: every save of an article first copies the version it replaces into
 * `news_revisions`, in the save's own transaction. A revision's media stays stored as long as the
 * revision does, that is until its article is deleted for good.
 */

export type RevisionSummary = { id: number; title: string; savedAt: string; savedBy: string | null };

export type Revision = RevisionSummary & {
  newsId: string;
  content: string;
  body: RichDocument;
  category: string;
  images: string[];
  imageDetails: ImageDetailsMap;
  imageUrl: string | null;
  video: string | null;
  authorId: string | null;
  byline: string | null;
  /** The topics' names at that version; null for a revision kept before topics (it restores none). */
  topics: string[] | null;
  /** Standfirst, slug, share fields and noindex as this version had them. */
  story: StoryFields;
};

/** Who saves, and whether it is the form's autosave. */
/** Who saved, how, and when (the real clock when `at` is not given). */
export type Save = { by: string | null; kind: RevisionKind; at?: Date };
export const UNNAMED_SAVE: Save = { by: null, kind: "save" };

/**
 * Keeps the article's current version as a revision replaced by `save` at `savedAt`; call it before the
 * update, in its transaction. An autosave right after another autosave by the same person keeps
 * nothing: the version it replaces is only a moment of the same writing, and the history would fill
 * with one every few seconds.
 */
export async function keepRevision(trx: DB, newsId: string, save: Save, savedAt: string): Promise<void> {
  if (save.kind === "autosave") {
    const newest = await trx
      .selectFrom("news_revisions")
      .select(["kind", "saved_by"])
      .where("news_id", "=", newsId)
      .orderBy("id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (newest?.kind === "autosave" && newest.saved_by === save.by) return;
  }
  const current = await trx
    .selectFrom("news")
    .select([
      "title",
      "content",
      "body",
      "category",
      "images",
      "image_details",
      "image_url",
      "video",
      "author_id",
      "byline",
      ...STORY_COLUMNS,
    ])
    .where("id", "=", newsId)
    .executeTakeFirst();
  if (!current) return;
  await trx
    .insertInto("news_revisions")
    .values({
      news_id: newsId,
      ...current,
      topics: await storedTopicNames(trx, newsId),
      saved_by: save.by,
      kind: save.kind,
      saved_at: savedAt,
    })
    .execute();
}

/** An article's revisions, newest first, with the name of who saved each. */
export async function listRevisions(db: DB, newsId: string): Promise<RevisionSummary[]> {
  const rows = await db
    .selectFrom("news_revisions")
    .leftJoin("user", "user.id", "news_revisions.saved_by")
    .select(["news_revisions.id", "news_revisions.title", "news_revisions.saved_at", "user.name"])
    .where("news_revisions.news_id", "=", newsId)
    .orderBy("news_revisions.id", "desc")
    .execute();
  return rows.map((row) => ({ id: Number(row.id), title: row.title, savedAt: row.saved_at, savedBy: row.name }));
}

/** One revision of the article `newsId`, or null (a revision of another article is not found either). */
export async function getRevision(db: DB, newsId: string, revisionId: number): Promise<Revision | null> {
  if (!Number.isSafeInteger(revisionId) || revisionId < 1) return null;
  const row = await db
    .selectFrom("news_revisions")
    .leftJoin("user", "user.id", "news_revisions.saved_by")
    .selectAll("news_revisions")
    .select("user.name")
    .where("news_revisions.news_id", "=", newsId)
    .where("news_revisions.id", "=", revisionId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: Number(row.id),
    newsId: row.news_id,
    title: row.title,
    content: row.content,
    body: storedBody(row.body, row.content),
    category: row.category,
    images: parseStringList(row.images),
    imageDetails: parseImageDetails(row.image_details),
    imageUrl: row.image_url,
    video: row.video,
    authorId: row.author_id,
    byline: row.byline,
    topics: row.topics === null ? null : parseStringList(row.topics),
    story: storyOfRow(row),
    savedAt: row.saved_at,
    savedBy: row.name,
  };
}

/** The media URLs a set of revision rows refer to, images placed in their bodies included. */
function mediaOfRows(
  rows: { images: string; image_url: string | null; video: string | null; body: string | null }[],
): string[] {
  return rows.flatMap((row) => [
    ...parseStringList(row.images),
    ...(row.image_url ? [row.image_url] : []),
    ...(row.video ? [row.video] : []),
    ...(row.body ? documentImages(storedBody(row.body, "")) : []),
  ]);
}

/** Every media URL any revision refers to, for the media sweep. */
export async function listRevisionMedia(db: DB): Promise<string[]> {
  return mediaOfRows(await db.selectFrom("news_revisions").select(["images", "image_url", "video", "body"]).execute());
}

/** The media URLs the revisions of `newsId` refer to. */
export async function revisionMediaOf(db: DB, newsId: string): Promise<string[]> {
  return mediaOfRows(
    await db
      .selectFrom("news_revisions")
      .select(["images", "image_url", "video", "body"])
      .where("news_id", "=", newsId)
      .execute(),
  );
}

/** Whether any kept revision refers to `url`. */
export async function revisionUses(db: DB, url: string): Promise<boolean> {
  const row = await db
    .selectFrom("news_revisions")
    .select("id")
    .where((eb) =>
      eb.or([
        eb("video", "=", url),
        eb("image_url", "=", url),
        eb("images", "like", `%${JSON.stringify(url)}%`),
        eb("body", "like", `%${JSON.stringify(url)}%`),
      ]),
    )
    .executeTakeFirst();
  return row !== undefined;
}

export async function deleteRevisionsOf(trx: DB, newsId: string): Promise<void> {
  await trx.deleteFrom("news_revisions").where("news_id", "=", newsId).execute();
}
