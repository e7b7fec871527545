import { isCategory, type Category } from "~/lib/categories";
import type { NewsStatus } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { recordArticleEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import { syncSearchIndex } from "~/server/search/search-index.server";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { AppError } from "~/server/platform/app-error.server";
import { articleState } from "./articles-write.server";
import { articleNotFound } from "./ownership.server";

/*
 * The trash: deleting an article moves it here, out of every public place at once (its
 * status is no longer `published`, and the outbox event empties every cache); it is kept with its
 * media and revisions for TRASH_KEEP_MS, restored by an editor, or deleted for good by an admin or the
 * daily purge (trash-purge.server.ts).
 */

export const TRASH_KEEP_MS = 30 * 24 * 60 * 60 * 1000;

export type TrashedArticle = {
  id: string;
  title: string;
  category: Category;
  trashedFrom: NewsStatus;
  deletedAt: string;
  authorName: string | null;
};

export const notInTrash = () => new AppError("not-found", { message: newsroomMessages.notInTrash });

/** Moves an article to the trash; not-found when there is none outside it. */
export async function trashArticle(db: DB, id: string, now = new Date()): Promise<void> {
  const trashed = await writeWithEvents(db, async (trx) => {
    const row = await trx
      .selectFrom("news")
      .select(["title", "category", "status", "created_at", "published_at", "slug"])
      .where("id", "=", id)
      .where("status", "!=", "trashed")
      .executeTakeFirst();
    if (!row) return false;
    await trx
      .updateTable("news")
      .set((eb) => ({
        status: "trashed",
        trashed_from: row.status,
        deleted_at: now.toISOString(),
        version: eb("version", "+", 1),
      }))
      .where("id", "=", id)
      .execute();
    await syncSearchIndex(trx, id);
    await recordArticleEvent(trx, articleState(id, row), articleState(id, { ...row, status: "trashed" }));
    return true;
  });
  if (!trashed) throw articleNotFound();
}

/** Brings an article back from the trash to the status it had; not-found when it is not in the trash. */
export async function restoreFromTrash(db: DB, id: string): Promise<void> {
  const restored = await writeWithEvents(db, async (trx) => {
    const row = await trx
      .selectFrom("news")
      .select(["title", "category", "status", "created_at", "published_at", "slug", "trashed_from"])
      .where("id", "=", id)
      .where("status", "=", "trashed")
      .executeTakeFirst();
    if (!row) return false;
    const status = row.trashed_from ?? "draft";
    await trx
      .updateTable("news")
      .set((eb) => ({ status, trashed_from: null, deleted_at: null, version: eb("version", "+", 1) }))
      .where("id", "=", id)
      .execute();
    await syncSearchIndex(trx, id);
    await recordArticleEvent(trx, articleState(id, row), articleState(id, { ...row, status }));
    return true;
  });
  if (!restored) throw notInTrash();
}

/** What the trash holds, most recently deleted first. */
export async function listTrash(db: DB): Promise<TrashedArticle[]> {
  const rows = await db
    .selectFrom("news")
    .leftJoin("user", "user.id", "news.author_id")
    .select(["news.id", "news.title", "news.category", "news.trashed_from", "news.deleted_at", "user.name"])
    .where("news.status", "=", "trashed")
    .orderBy("news.deleted_at", "desc")
    .orderBy("news.id", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    title: row.title,
    category: isCategory(row.category) ? row.category : "miscellaneous",
    trashedFrom: row.trashed_from ?? "draft",
    deletedAt: String(row.deleted_at ?? ""),
    authorName: row.name,
  }));
}

/** Whether the article `id` is in the trash: only these are deleted for good. */
export async function isTrashed(db: DB, id: string): Promise<boolean> {
  const row = await db
    .selectFrom("news")
    .select("id")
    .where("id", "=", id)
    .where("status", "=", "trashed")
    .executeTakeFirst();
  return row !== undefined;
}

/** The articles in the trash for longer than TRASH_KEEP_MS at `now`. */
export async function listExpiredTrash(db: DB, now = new Date()): Promise<string[]> {
  const cutoff = new Date(now.getTime() - TRASH_KEEP_MS).toISOString();
  const rows = await db
    .selectFrom("news")
    .select("id")
    .where("status", "=", "trashed")
    .where("deleted_at", "<", cutoff)
    .execute();
  return rows.map((row) => row.id);
}
