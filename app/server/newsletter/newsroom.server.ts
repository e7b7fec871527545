import { sql } from "kysely";
import { newsletterMessages as m } from "~/lib/messages";
import { BRIEF_OPENING_MAX } from "~/lib/newsletter";
import { newsletterDeskMessages as d } from "~/lib/newsroom-messages";
import type { NewsSummary } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import type { SendingKind, SendingStatus, SubscriberStatus } from "~/server/db/schema";
import type { Mailer } from "~/server/mail/mail.server";
import { listArticlesByIds } from "~/server/news/articles-read.server";
import { AppError } from "~/server/platform/app-error.server";
import { normalisedAddress, parsedCategories } from "./addresses.server";
import { linkToken } from "./links.server";
import { TOKEN_SLOT } from "./mail-content.server";
import { beirutDay, ensureNextBrief, mailOf, MAX_STORIES, nextBriefDay, pickBriefStories } from "./sendings.server";
import { unsubscribe } from "./subscribers.server";

/*
 * The newsroom's side of the newsletter (decision 046): the next brief's draft, its test and preview,
 * the subscribers (counts, search, removal, erasure, CSV out and in) and each sending's figures.
 */

export type BriefDraft = {
  id: number;
  day: string;
  scheduledAt: string;
  opening: string;
  stories: NewsSummary[];
  edited: boolean;
};

/** The next brief as editors see it, its draft made first when missing. */
export async function nextBrief(db: DB, now: Date, hour: number): Promise<BriefDraft | null> {
  await ensureNextBrief(db, now, hour);
  const row = await db
    .selectFrom("newsletter_sendings")
    .select(["id", "day", "scheduled_at", "opening", "story_ids", "edited_at"])
    .where("day", "=", nextBriefDay(now, hour))
    .where("status", "=", "draft")
    .executeTakeFirst();
  if (!row) return null;
  let storyIds = JSON.parse(row.story_ids) as string[];
  if (row.edited_at === null) {
    // Until an editor changes it, the draft shows what it would hold if it went now.
    storyIds = await pickBriefStories(db, now);
    await db
      .updateTable("newsletter_sendings")
      .set({ story_ids: JSON.stringify(storyIds) })
      .where("id", "=", row.id)
      .where("status", "=", "draft")
      .where("edited_at", "is", null)
      .execute();
  }
  const stories = await listArticlesByIds(db, storyIds);
  return {
    id: Number(row.id),
    day: row.day!,
    scheduledAt: row.scheduled_at,
    opening: row.opening,
    stories: stories.map(({ content: _text, ...summary }) => summary),
    edited: row.edited_at !== null,
  };
}

async function draftOf(db: DB, id: number) {
  const row = await db
    .selectFrom("newsletter_sendings")
    .select(["id", "kind", "day", "status", "opening", "story_ids"])
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row || row.status !== "draft") throw new AppError("conflict", { message: d.notDraft });
  return row;
}

/** The story id a field names: its id, or the address of its page. */
export function storyIdOf(text: string): string {
  const trimmed = text.trim();
  const fromPath = /\/news\/([^/?#\s]+)/.exec(trimmed)?.[1];
  return decodeURIComponent(fromPath ?? trimmed);
}

/** The draft's stories and opening as an editor left them; its stories are no longer chosen again when it goes. */
export async function saveBrief(
  db: DB,
  id: number,
  edit: { storyIds: string[]; opening: string },
  now: Date,
): Promise<void> {
  await draftOf(db, id);
  const opening = edit.opening.trim();
  if (opening.length > BRIEF_OPENING_MAX) throw new AppError("validation", { fields: { opening: d.openingTooLong } });
  const ids = [...new Set(edit.storyIds.filter((storyId) => storyId !== ""))];
  if (ids.length > MAX_STORIES) throw new AppError("validation", { fields: { story: d.tooManyStories } });
  const published = await listArticlesByIds(db, ids);
  if (published.length !== ids.length) throw new AppError("validation", { fields: { story: d.storyNotFound } });
  await db
    .updateTable("newsletter_sendings")
    .set({ story_ids: JSON.stringify(ids), opening, edited_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "=", "draft")
    .execute();
}

/** The draft goes now rather than at its hour. */
export async function sendBriefNow(db: DB, id: number, now: Date): Promise<void> {
  await draftOf(db, id);
  await db
    .updateTable("newsletter_sendings")
    .set({ status: "queued", scheduled_at: now.toISOString() })
    .where("id", "=", id)
    .where("status", "=", "draft")
    .execute();
}

/** The draft's mail as it will be read, its links made for `previewAddress`. */
export async function previewOf(db: DB, baseUrl: string, id: number, secret: string, previewAddress: string) {
  const row = await draftOf(db, id);
  const { mail } = await mailOf(db, baseUrl, {
    kind: row.kind,
    storyIds: JSON.parse(row.story_ids) as string[],
    opening: row.opening,
    day: row.day ?? beirutDay(new Date()),
  });
  const token = linkToken(secret, "manage", previewAddress);
  return { ...mail, html: mail.html.replaceAll(TOKEN_SLOT, token), text: mail.text.replaceAll(TOKEN_SLOT, token) };
}

/** "Send me a test": the draft's mail to the editor alone, its subject marked. */
export async function sendTest(
  db: DB,
  mailer: Mailer | null,
  mail: { baseUrl: string; secret: string },
  id: number,
  to: string,
): Promise<void> {
  if (!mailer) throw new AppError("unavailable", { message: d.mailOff });
  const preview = await previewOf(db, mail.baseUrl, id, mail.secret, to);
  await mailer.send({ to, subject: `${m.mailTest}${preview.subject}`, text: preview.text, html: preview.html });
}

export type SubscriberCounts = Record<SubscriberStatus, number>;

export async function subscriberCounts(db: DB): Promise<SubscriberCounts> {
  const rows = await db
    .selectFrom("newsletter_subscribers")
    .select(["status", (eb) => eb.fn.countAll<number>().as("n")])
    .groupBy("status")
    .execute();
  const counts: SubscriberCounts = { confirmed: 0, pending: 0, unsubscribed: 0, bounced: 0 };
  for (const row of rows) counts[row.status] = Number(row.n);
  return counts;
}

export type SubscriberRow = {
  id: number;
  email: string;
  status: SubscriberStatus;
  brief: boolean;
  breaking: boolean;
  categories: string[];
  imported: boolean;
  createdAt: string;
};

const SEARCH_LIMIT = 50;

export async function searchSubscribers(db: DB, query: string): Promise<SubscriberRow[]> {
  const needle = query
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`);
  let select = db
    .selectFrom("newsletter_subscribers")
    .select(["id", "email", "status", "brief", "breaking", "categories", "imported", "created_at"])
    .orderBy("id", "desc")
    .limit(SEARCH_LIMIT);
  if (needle) select = select.where(sql<boolean>`email like ${`%${needle}%`} escape '\\'`);
  const rows = await select.execute();
  return rows.map((row) => ({
    id: Number(row.id),
    email: row.email,
    status: row.status,
    brief: Boolean(row.brief),
    breaking: Boolean(row.breaking),
    categories: parsedCategories(row.categories),
    imported: Boolean(row.imported),
    createdAt: row.created_at,
  }));
}

async function existingSubscriber(db: DB, id: number): Promise<void> {
  const row = await db.selectFrom("newsletter_subscribers").select("id").where("id", "=", id).executeTakeFirst();
  if (!row) throw new AppError("not-found", { message: d.subscriberNotFound });
}

/** An editor's removal: the address is unsubscribed (kept, so no import brings it back). */
export async function removeSubscriber(db: DB, id: number, now: Date): Promise<void> {
  await existingSubscriber(db, id);
  await unsubscribe(db, id, now);
}

/** An admin's erasure: nothing of the address is left, nor of what was still to go to it. */
export async function eraseSubscriber(db: DB, id: number): Promise<void> {
  await existingSubscriber(db, id);
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("newsletter_deliveries").where("subscriber_id", "=", id).execute();
    await trx.deleteFrom("newsletter_subscribers").where("id", "=", id).execute();
  });
}

const csvCell = (value: string) => (/[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** Every subscriber as CSV: the address, its state and choices, whether imported, when. */
export async function subscribersCsv(db: DB): Promise<string> {
  const rows = await db
    .selectFrom("newsletter_subscribers")
    .select(["email", "status", "brief", "breaking", "categories", "imported", "created_at", "confirmed_at"])
    .orderBy("id")
    .execute();
  const lines = ["email,status,brief,breaking,categories,imported,created_at,confirmed_at"];
  for (const row of rows)
    lines.push(
      [
        row.email,
        row.status,
        row.brief ? "1" : "0",
        row.breaking ? "1" : "0",
        parsedCategories(row.categories).join(" "),
        row.imported ? "1" : "0",
        row.created_at,
        row.confirmed_at ?? "",
      ]
        .map(csvCell)
        .join(","),
    );
  return `${lines.join("\r\n")}\r\n`;
}

/** The addresses of a CSV: its `email` column, else its first; a header row or a bad line is skipped. */
export function addressesOfCsv(text: string): { emails: string[]; skipped: number } {
  const lines = text
    .replace(/^\uFEFF/, "")
    .split(/\r?\n/)
    .filter((line) => line.trim() !== "");
  const cells = (line: string) => line.split(/[,;\t]/).map((cell) => cell.trim().replace(/^"|"$/g, ""));
  const header = lines[0] ? cells(lines[0]).map((cell) => cell.toLowerCase()) : [];
  const column = Math.max(0, header.indexOf("email"));
  const body = header.includes("email") ? lines.slice(1) : lines;
  const emails: string[] = [];
  let skipped = 0;
  for (const line of body) {
    const email = normalisedAddress(cells(line)[column] ?? "");
    if (email) emails.push(email);
    else skipped++;
  }
  return { emails: [...new Set(emails)], skipped };
}

/**
 * An outlet's existing list, confirmed for the morning brief and marked imported. An address already
 * here (unsubscribed, bounced, pending or confirmed) is left as it is: an import never re-adds one.
 */
export async function importSubscribers(db: DB, text: string, now: Date): Promise<{ added: number; skipped: number }> {
  const { emails, skipped } = addressesOfCsv(text);
  if (emails.length === 0) throw new AppError("validation", { fields: { file: d.importInvalid } });
  const at = now.toISOString();
  let added = 0;
  for (let start = 0; start < emails.length; start += 500) {
    const batch = emails.slice(start, start + 500);
    const result = await db
      .insertInto("newsletter_subscribers")
      .values(
        batch.map((email) => ({
          email,
          brief: 1,
          status: "confirmed" as const,
          imported: 1,
          created_at: at,
          requested_at: at,
          confirmed_at: at,
          changed_at: at,
        })),
      )
      .onConflict((oc) => oc.column("email").doNothing())
      .executeTakeFirst();
    added += Number(result.numInsertedOrUpdatedRows ?? 0);
  }
  return { added, skipped: skipped + emails.length - added };
}

export type SendingFigures = {
  id: number;
  kind: SendingKind;
  status: SendingStatus;
  day: string;
  subject: string | null;
  recipients: number;
  sent: number;
  refused: number;
  bounced: number;
  unsubscribedAfter: number;
  /** Views of its stories that came from newsletter links (utm_source=newsletter), from its day on. */
  visits: number;
};

/** The newest sendings with their figures. */
export async function listSendings(db: DB, limit = 30): Promise<SendingFigures[]> {
  const rows = await db
    .selectFrom("newsletter_sendings")
    .select([
      "id",
      "kind",
      "status",
      "day",
      "scheduled_at",
      "prepared_at",
      "subject",
      "story_ids",
      "recipients",
      "sent",
      "refused",
      "bounced",
    ])
    .where("status", "!=", "draft")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
  const figures: SendingFigures[] = [];
  let later: string | null = null;
  for (const row of rows) {
    const day = row.day ?? beirutDay(new Date(row.scheduled_at));
    const storyIds = JSON.parse(row.story_ids) as string[];
    const [unsubscribed, visits] = await Promise.all([
      row.prepared_at ? unsubscribedBetween(db, row.prepared_at, later) : 0,
      storyIds.length > 0 ? newsletterViews(db, storyIds, day) : 0,
    ]);
    if (row.prepared_at) later = row.prepared_at;
    figures.push({
      id: Number(row.id),
      kind: row.kind,
      status: row.status,
      day,
      subject: row.subject,
      recipients: Number(row.recipients),
      sent: Number(row.sent),
      refused: Number(row.refused),
      bounced: Number(row.bounced),
      unsubscribedAfter: unsubscribed,
      visits,
    });
  }
  return figures;
}

async function unsubscribedBetween(db: DB, from: string, until: string | null): Promise<number> {
  let query = db
    .selectFrom("newsletter_subscribers")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("status", "=", "unsubscribed")
    .where("changed_at", ">=", from);
  if (until) query = query.where("changed_at", "<", until);
  return Number((await query.executeTakeFirst())?.n ?? 0);
}

async function newsletterViews(db: DB, storyIds: string[], day: string): Promise<number> {
  const row = await db
    .selectFrom("stats_daily")
    .select((eb) => eb.fn.sum<number>("views").as("n"))
    .where("source", "=", "newsletter")
    .where("news_id", "in", storyIds)
    .where("period", ">=", day)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
