import type { Category } from "~/lib/categories";
import { isCategory } from "~/lib/categories";
import type { NewsStatus } from "~/lib/news";
import type { OwnedArticle } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { reviewNoteSchema } from "~/lib/review-schema";
import { z } from "~/lib/zod";
import type { ReadFormOptions } from "~/server/http/read-form.server";
import { AppError } from "~/server/platform/app-error.server";
import { articleNotFound } from "./ownership.server";

/** What the permission rules and the review need of an article, whatever its status. */
export type ArticleAccess = OwnedArticle & { reviewNote: string | null };

export async function getArticleAccess(db: DB, id: string): Promise<ArticleAccess | null> {
  const row = await db
    .selectFrom("news")
    .select(["author_id", "status", "review_note"])
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { authorId: row.author_id, status: row.status, reviewNote: row.review_note } : null;
}

export type ReviewItem = {
  id: string;
  title: string;
  category: Category;
  authorName: string | null;
  changedAt: string;
};

function toItem(row: {
  id: string;
  title: string;
  category: string;
  name: string | null;
  updated_at: string | null;
  created_at: string;
}): ReviewItem {
  return {
    id: row.id,
    title: row.title,
    category: isCategory(row.category) ? row.category : "miscellaneous",
    authorName: row.name,
    changedAt: row.updated_at ?? row.created_at,
  };
}

function withAuthors(db: DB, status: NewsStatus) {
  return db
    .selectFrom("news")
    .leftJoin("user", "user.id", "news.author_id")
    .select(["news.id", "news.title", "news.category", "user.name", "news.updated_at", "news.created_at"])
    .where("news.status", "=", status);
}

/** The editors' queue: articles waiting for review, the longest waiting first. */
export async function listReviewQueue(db: DB, limit: number): Promise<ReviewItem[]> {
  const rows = await withAuthors(db, "review")
    .orderBy("news.updated_at", "asc")
    .orderBy("news.created_at", "asc")
    .limit(limit)
    .execute();
  return rows.map(toItem);
}

/** How many stories wait for review: the editors' notice on the dashboard. */
export async function countAwaitingReview(db: DB): Promise<number> {
  const row = await db
    .selectFrom("news")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("news.status", "=", "review")
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export type SentBackItem = ReviewItem & { note: string };

/** An author's drafts that an editor sent back, with the note, the latest first. */
export async function listSentBack(db: DB, authorId: string, limit: number): Promise<SentBackItem[]> {
  const rows = await withAuthors(db, "draft")
    .select("news.review_note")
    .where("news.author_id", "=", authorId)
    .where("news.review_note", "is not", null)
    .orderBy("news.updated_at", "desc")
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...toItem(row), note: row.review_note ?? "" }));
}

/** The send-back form: the editor's note (http/read-form, SEND_BACK_READING). */
export const sendBackSchema = z.object({ note: reviewNoteSchema });
export type SendBack = z.output<typeof sendBackSchema>;
/** The form is a page of its own: a refusal's message is its note's. */
export const SEND_BACK_READING: ReadFormOptions = { message: "first" };

/**
 * An editor sends an article waiting for review back to its author as a draft, with a note the author
 * sees, at `now`. Only an article still in review moves (two editors at once: one wins, the other is
 * refused); readers saw nothing of it before or after, so no outbox event.
 */
export async function sendBack(db: DB, id: string, { note }: SendBack, now = new Date()): Promise<void> {
  if (!(await getArticleAccess(db, id))) throw articleNotFound();
  const result = await db
    .updateTable("news")
    .set((eb) => ({
      status: "draft",
      review_note: note,
      updated_at: now.toISOString(),
      version: eb("version", "+", 1),
    }))
    .where("id", "=", id)
    .where("status", "=", "review")
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) throw new AppError("conflict", { message: newsroomMessages.notInReview });
}
