import { roleLabels } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { reviewMail, type Mailer } from "~/server/mail/mail.server";
import type { OutboxEvent } from "~/server/outbox/outbox.server";

/*
 * The mail that tells editors a story waits for review (docs/product.md#article-statuses): one per
 * submission, to every active editor and admin but the story's author, sent by whichever process
 * first claims the submission's outbox event (a row of `review_mails`), after the request has answered.
 */

export type ReviewMailing = { db: DB; mailer: Mailer; baseUrl: string };

/** The events among `events` that sent a story to review from another status. */
export function reviewSubmissions(events: OutboxEvent[]): OutboxEvent[] {
  return events.filter(
    (event) => event.articleId !== null && event.after?.status === "review" && event.before?.status !== "review",
  );
}

/** Takes the submission's mail for this process; false when another process took it first. */
async function claim(db: DB, event: OutboxEvent, now: Date): Promise<boolean> {
  const result = await db
    .insertInto("review_mails")
    .values({ event_id: event.id, news_id: event.articleId!, claimed_at: now.toISOString() })
    .onConflict((oc) => oc.column("event_id").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/**
 * Mails the editors about one submission, once across every process; nothing when the story has left
 * review since (published, sent back or deleted before the mail went).
 */
export async function mailReviewSubmission(
  { db, mailer, baseUrl }: ReviewMailing,
  event: OutboxEvent,
  now = new Date(),
): Promise<number> {
  if (!(await claim(db, event, now))) return 0;
  const story = await db
    .selectFrom("news")
    .leftJoin("user", "user.id", "news.author_id")
    .select(["news.id", "news.title", "news.status", "news.author_id", "user.name as authorName"])
    .where("news.id", "=", event.articleId!)
    .executeTakeFirst();
  if (story?.status !== "review") return 0;
  const editors = await db
    .selectFrom("user")
    .select(["user.email", "user.name"])
    .where("user.role", "in", ["editor", "admin"])
    .where("user.disabledAt", "is", null)
    .$if(story.author_id !== null, (query) => query.where("user.id", "!=", story.author_id!))
    .orderBy("user.id")
    .execute();
  const link = `${baseUrl}/edit-news/${encodeURIComponent(story.id)}`;
  for (const editor of editors)
    await mailer.send(reviewMail(editor, { title: story.title, author: story.authorName ?? roleLabels.author }, link));
  await db
    .updateTable("review_mails")
    .set({ sent_at: new Date().toISOString() })
    .where("event_id", "=", event.id)
    .execute();
  return editors.length;
}
