import { randomBytes } from "node:crypto";
import { parseImageDetails, storedImageDetails, type ImageDetailsMap } from "~/lib/image-details";
import { isCategory, type Category } from "~/lib/categories";
import type { NewsStatus } from "~/lib/news";
import { documentImages, documentPlainText, type RichDocument } from "~/lib/rich-text/document";
import type { DB } from "~/server/db/db.server";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { alertOfWrite, queueAlert } from "./push-alerts.server";
import { ensureShortLink } from "./short-links.server";
import { deleteRevisionsOf, keepRevision, UNNAMED_SAVE, type Save, revisionMediaOf } from "./revisions.server";
import { dialectName } from "~/server/db/dialect.server";
import { recordArticleEvent, writeWithEvents, type ArticleState } from "~/server/outbox/outbox.server";
import { mediaOfRow, mediaOnlyUsedBy } from "./article-media.server";
import { articleNotYours } from "./ownership.server";
import { setArticleTopics, type TopicsRequest } from "./topics.server";
import { storyColumns, type StoryChanges } from "./story-fields.server";
import { AppError } from "~/server/platform/app-error.server";

/* Writing articles, each write in one transaction with its outbox event. Reads: articles-read.server.ts. */

const ID_ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A 20-character id, the same shape as the original's document ids. */
export function newArticleId(): string {
  return Array.from(randomBytes(20), (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}

/**
 * An article's text: with `body` (the editor's document), `content` is stored as its plain text, whatever
 * the caller passed; without it (demo seed, tests of plain text), `content` alone, read as paragraphs.
 */
type ArticleText = { content: string; body?: RichDocument | null };

function storedText({ content, body }: ArticleText): { content: string; body: string | null } {
  return body ? { content: documentPlainText(body), body: JSON.stringify(body) } : { content, body: null };
}

export type NewArticle = ArticleText & {
  title: string;
  category: Category;
  images?: string[];
  imageDetails?: ImageDetailsMap;
  /** The legacy image address (`image_url`). */
  imageUrl?: string | null;
  video?: string | null;
  status?: NewsStatus;
  /** When a scheduled article goes out (UTC ISO); ignored for any other status. */
  publishAt?: string | null;
  visits?: number;
  authorId?: string | null;
  byline?: string | null;
  createdAt?: Date;
  /** The form submission that asked for it: the same submission never creates two articles. */
  submissionId?: string;
  /** Its topics, linked in the same transaction. */
  topics?: TopicsRequest;
  /** Standfirst, slug, share fields, noindex (story-fields.server.ts). */
  story?: StoryChanges;
  /** An editor asked for a Web Push alert: sent when the story is published (push-alerts.server.ts). */
  sendAlert?: boolean;
  /** The site's alerts per hour: an alert past them refuses the write (push-alerts.server.ts). Left out: no limit. */
  alertsPerHour?: number;
  /** Seeded, not published by the newsroom: no alert, even for a breaking story. */
  silent?: boolean;
};

/** shortId: null until the article is first published. */
export type CreatedArticle = { id: string; shortId: string | null; createdAt: string; duplicate: boolean };

/** The article a form submission already created, if any. */
async function articleOfSubmission(db: DB, submissionId: string): Promise<CreatedArticle | undefined> {
  const existing = await db
    .selectFrom("news")
    .leftJoin("short_links", "short_links.news_id", "news.id")
    .select(["news.id", "news.created_at", "short_links.short_id"])
    .where("news.submission_id", "=", submissionId)
    .executeTakeFirst();
  return existing && { id: existing.id, shortId: existing.short_id, createdAt: existing.created_at, duplicate: true };
}

/**
 * Creates an article, its search entry, its outbox event and, when it is published, its short link, in
 * one transaction. A
 * submission already used returns the article it created: the unique index on submission_id decides,
 * so two identical posts at the same moment (on a server that runs them in parallel) still publish once.
 */
export async function createArticle(db: DB, input: NewArticle): Promise<CreatedArticle> {
  return writeWithEvents(db, async (trx) => {
    const id = newArticleId();
    const createdAt = (input.createdAt ?? new Date()).toISOString();
    const status = input.status ?? "published";
    const publishedAt = status === "published" ? createdAt : null;
    const story = storyColumns(input.story ?? {}, {
      slug: null,
      title: input.title,
      published: status === "published",
    });
    const inserted = await trx
      .insertInto("news")
      .values({
        id,
        title: input.title,
        ...storedText(input),
        category: input.category,
        images: JSON.stringify(input.images ?? []),
        image_details: storedImageDetails(input.imageDetails ?? {}, input.images ?? []),
        image_url: input.imageUrl ?? null,
        video: input.video ?? null,
        is_video: input.video ? 1 : 0,
        status,
        visits: input.visits ?? 0,
        author_id: input.authorId ?? null,
        byline: input.byline ?? null,
        created_at: createdAt,
        updated_at: null,
        published_at: publishedAt,
        publish_at: status === "scheduled" ? (input.publishAt ?? null) : null,
        submission_id: input.submissionId ?? null,
        send_alert: input.sendAlert ? 1 : 0,
        ...story,
      })
      // Waits for a concurrent insert of the same submission to commit, then inserts nothing.
      .onConflict((oc) => oc.column("submission_id").doNothing())
      .executeTakeFirst();
    if (inserted.numInsertedOrUpdatedRows === 0n) {
      const existing = input.submissionId ? await articleOfSubmission(trx, input.submissionId) : undefined;
      if (!existing) throw new Error("the article's submission conflicted, but its article is gone");
      return existing;
    }
    if (input.topics) await setArticleTopics(trx, id, input.topics, createdAt);
    const shortId = status === "published" ? await ensureShortLink(trx, id) : null;
    await syncSearchIndex(trx, id);
    const alert = alertOfWrite({
      category: input.category,
      wasPublished: false,
      published: status === "published",
      sendAlert: input.sendAlert === true,
    });
    if (alert && !input.silent) await queueAlert(trx, id, alert, new Date(createdAt), input.alertsPerHour);
    await recordArticleEvent(trx, null, {
      id,
      title: input.title,
      createdAt,
      publishedAt,
      category: input.category,
      status,
      slug: story.slug,
    });
    return { id, shortId, createdAt, duplicate: false };
  });
}

export type ArticleChanges = ArticleText & {
  title: string;
  category: Category;
  status: NewsStatus;
  /** When a scheduled article goes out (UTC ISO); ignored for any other status. */
  publishAt?: string | null;
  /** Change the article only if it still has this author and one of these statuses (permissions.ts editCondition). */
  onlyIf?: { authorId: string; statuses: readonly NewsStatus[] } | null;
  imageUrl: string | null;
  images: string[];
  /** Left out: each image that stays keeps its details. */
  imageDetails?: ImageDetailsMap;
  video: string | null;
  /** Left out: the byline stays as it is. */
  byline?: string | null;
  /** Left out: the topics stay as they are. */
  topics?: TopicsRequest;
  /** Left out (or a field of it): the story's fields stay as they are. */
  story?: StoryChanges;
  /**
   * The version the edit was based on (news.version): a row that has moved on since refuses it with
   * `edit-conflict`, in the write's own statement. Every save of an existing story by a person or a
   * client names it (base-version.server.ts); only the first autosave of a new story, into the draft it
   * has just made, leaves it out.
   */
  baseVersion?: number;
  /** An editor asked for a Web Push alert: now if the story is published, else when it is (push-alerts.server.ts). Left out: unchanged. */
  sendAlert?: boolean;
  /** The site's alerts per hour: an alert past them refuses the write (push-alerts.server.ts). Left out: no limit. */
  alertsPerHour?: number;
};

/** An article's public state as its row holds it, for its outbox event. */
export function articleState(
  id: string,
  row: {
    title: string;
    category: string;
    status: NewsStatus;
    created_at: string;
    published_at: string | null;
    slug: string | null;
  },
): ArticleState {
  const category = isCategory(row.category) ? row.category : "miscellaneous";
  return {
    id,
    title: row.title,
    createdAt: row.created_at,
    publishedAt: row.published_at,
    category,
    status: row.status,
    slug: row.slug,
  };
}

/** A save based on a version of the article that another save has replaced since. */
export const editConflict = () => new AppError("edit-conflict");

/**
 * Applies an edit, keeps the version it replaces as a revision replaced by `save`, and records it in the
 * outbox; returns the media URLs no article or revision uses any more (to delete once committed) and
 * the article's new version, or null when there is no such article (or it is in the trash, or an
 * autosave finds no draft). An edit based on an older version than the row's is refused (edit-conflict).
 */
export async function updateArticle(
  db: DB,
  id: string,
  changes: ArticleChanges,
  save: Save = UNNAMED_SAVE,
): Promise<{ unusedMedia: string[]; version: number } | null> {
  return writeWithEvents(db, async (trx) => {
    const current = await trx
      .selectFrom("news")
      .select([
        "images",
        "image_details",
        "video",
        "body",
        "published_at",
        "title",
        "category",
        "status",
        "created_at",
        "slug",
        "version",
        "send_alert",
      ])
      .where("id", "=", id)
      // An autosave writes into a draft only: one published (or sent for review) meanwhile is left alone.
      .where("status", save.kind === "autosave" ? "=" : "!=", save.kind === "autosave" ? "draft" : "trashed")
      // Concurrent saves of one article take turns, so each keeps the version it really replaced.
      .$if(dialectName(trx) === "postgres", (query) => query.forUpdate())
      .executeTakeFirst();
    if (!current) return null;
    const { baseVersion } = changes;
    if (baseVersion !== undefined && current.version !== baseVersion) throw editConflict();
    const now = (save.at ?? new Date()).toISOString();
    const publishedAt = current.published_at ?? (changes.status === "published" ? now : null);
    await keepRevision(trx, id, save, now);
    const story = storyColumns(changes.story ?? {}, {
      slug: current.slug,
      title: changes.title,
      published: publishedAt !== null,
    });
    const updated = await trx
      .updateTable("news")
      .set((eb) => ({
        version: eb("version", "+", 1),
        title: changes.title,
        ...storedText(changes),
        category: changes.category,
        status: changes.status,
        image_url: changes.imageUrl,
        images: JSON.stringify(changes.images),
        image_details: storedImageDetails(
          changes.imageDetails ?? parseImageDetails(current.image_details),
          changes.images,
        ),
        video: changes.video,
        is_video: changes.video ? 1 : 0,
        byline: changes.byline,
        updated_at: now,
        published_at: publishedAt,
        publish_at: changes.status === "scheduled" ? (changes.publishAt ?? null) : null,
        ...story,
        ...(changes.sendAlert !== undefined ? { send_alert: changes.sendAlert ? 1 : 0 } : {}),
        // Submitting for review again closes the editor's last note.
        ...(changes.status === "review" ? { review_note: null } : {}),
      }))
      .where("id", "=", id)
      .$if(Boolean(changes.onlyIf), (qb) =>
        qb.where("author_id", "=", changes.onlyIf!.authorId).where("status", "in", changes.onlyIf!.statuses),
      )
      // The check above read the row; this one is the write's own, whatever ran in between.
      .$if(baseVersion !== undefined, (qb) => qb.where("version", "=", baseVersion!))
      .returning("version")
      .executeTakeFirst();
    if (!updated) throw (await versionMovedOn(trx, id, baseVersion)) ? editConflict() : articleNotYours();
    if (changes.topics) await setArticleTopics(trx, id, changes.topics, now);
    if (changes.status === "published") await ensureShortLink(trx, id);
    await syncSearchIndex(trx, id);
    const sendAlert = changes.sendAlert ?? Boolean(current.send_alert);
    const alert = alertOfWrite({
      category: changes.category,
      wasPublished: current.status === "published",
      published: changes.status === "published",
      sendAlert,
    });
    if (alert) await queueAlert(trx, id, alert, new Date(now), changes.alertsPerHour);
    const after = {
      id,
      title: changes.title,
      createdAt: current.created_at,
      publishedAt,
      category: changes.category,
      status: changes.status,
      slug: story.slug,
    };
    await recordArticleEvent(trx, articleState(id, current), after);
    const usedBefore = mediaOfRow(current);
    const usedAfter = new Set([
      ...changes.images,
      ...(changes.video ? [changes.video] : []),
      ...(changes.body ? documentImages(changes.body) : []),
    ]);
    return {
      unusedMedia: await mediaOnlyUsedBy(
        trx,
        id,
        usedBefore.filter((url) => !usedAfter.has(url)),
      ),
      version: Number(updated.version),
    };
  });
}

async function versionMovedOn(trx: DB, id: string, baseVersion: number | undefined): Promise<boolean> {
  if (baseVersion === undefined) return false;
  const row = await trx.selectFrom("news").select("version").where("id", "=", id).executeTakeFirst();
  return row !== undefined && Number(row.version) !== baseVersion;
}

/**
 * Deletes an article for good (its short link and its revisions go with it) and records it in the
 * outbox; returns the media URLs only it and its revisions used, or null when there is none.
 */
export async function deleteArticle(db: DB, id: string): Promise<{ media: string[] } | null> {
  return writeWithEvents(db, async (trx) => {
    const row = await trx
      .selectFrom("news")
      .select(["images", "video", "body", "category", "title", "created_at", "published_at", "status", "slug"])
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return null;
    const revisionMedia = await revisionMediaOf(trx, id);
    await deleteRevisionsOf(trx, id);
    await trx.deleteFrom("short_links").where("news_id", "=", id).execute();
    await trx.deleteFrom("video_posters").where("news_id", "=", id).execute();
    await trx.deleteFrom("news").where("id", "=", id).execute();
    await syncSearchIndex(trx, id);
    await recordArticleEvent(trx, articleState(id, row), null);
    const media = new Set([...mediaOfRow(row), ...revisionMedia]);
    return { media: await mediaOnlyUsedBy(trx, id, [...media]) };
  });
}
