import { sql } from "kysely";
import { categoryLabel } from "~/lib/categories";
import { formatDay } from "~/lib/dates";
import { pathOf } from "~/lib/news";
import { beirutWallTimeToIso, isoToBeirutWallTime } from "~/lib/publish-time";
import { taggedLink } from "~/lib/reader-classes";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import type { SendingKind } from "~/server/db/schema";
import { frontPageSlider } from "~/server/news/front-page.server";
import { listArticlesByIds } from "~/server/news/articles-read.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { preferencesLink } from "./links.server";
import { renderMail, TOKEN_SLOT, type MailStory, type RenderedMail } from "./mail-content.server";

/*
 * What the newsletter sends (decision 046): each day's morning brief, a draft chosen by itself (the
 * front page's lead, the most read and the newest of the last day) that editors may change until its
 * hour; and a mail for each story alert the push rule makes (decision 037), once per story. A sending
 * is prepared once: rendered, and its deliveries made in the same conditional transaction.
 */

const DAY_MS = 24 * 3600 * 1000;
const BRIEF_STORIES = 8;
export const MAX_STORIES = 20;
const EXCERPT_LENGTH = 220;
/** Alerts older than this when the sender first sees them get no mail (e.g. on the day the newsletter starts). */
const ALERT_MAIL_WINDOW_MS = 3600 * 1000;

/** The Beirut day of `moment`, YYYY-MM-DD. */
export function beirutDay(moment: Date): string {
  return isoToBeirutWallTime(moment.toISOString()).slice(0, 10);
}

/** The moment it is `hour` o'clock in Beirut on `day`. */
export function briefMoment(day: string, hour: number): Date {
  return new Date(beirutWallTimeToIso(`${day}T${String(hour).padStart(2, "0")}:00`)!);
}

/** The day whose brief goes next: today's until its hour, then tomorrow's. */
export function nextBriefDay(now: Date, hour: number): string {
  const today = beirutDay(now);
  if (now < briefMoment(today, hour)) return today;
  return new Date(Date.parse(`${today}T12:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** The brief's stories as chosen by itself: the front page's lead, then the most read and the newest published in the last day. */
export async function pickBriefStories(db: DB, now: Date): Promise<string[]> {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  const lastDay = () =>
    db
      .selectFrom("news")
      .select("id")
      .where("status", "=", "published")
      .where("category", "!=", "advertisement")
      .where("published_at", ">=", since)
      .where("published_at", "<=", now.toISOString());
  const [slider, mostRead, newest] = await Promise.all([
    frontPageSlider(db),
    lastDay().orderBy("visits", "desc").orderBy("published_at", "desc").limit(3).execute(),
    lastDay().orderBy("published_at", "desc").orderBy("id", "desc").limit(BRIEF_STORIES).execute(),
  ]);
  const lead = slider[0]?.id;
  const ids = [...(lead ? [lead] : []), ...mostRead.map((row) => row.id), ...newest.map((row) => row.id)];
  return [...new Set(ids)].slice(0, BRIEF_STORIES);
}

/** The next brief's draft, made when missing; a draft not yet gone follows the hour the settings give now. */
export async function ensureNextBrief(db: DB, now: Date, hour: number): Promise<void> {
  const day = nextBriefDay(now, hour);
  const at = briefMoment(day, hour).toISOString();
  const existing = await db
    .selectFrom("newsletter_sendings")
    .select(["id", "status", "scheduled_at"])
    .where("day", "=", day)
    .executeTakeFirst();
  if (existing) {
    if (existing.status === "draft" && existing.scheduled_at !== at)
      await db
        .updateTable("newsletter_sendings")
        .set({ scheduled_at: at })
        .where("id", "=", existing.id)
        .where("status", "=", "draft")
        .execute();
    return;
  }
  await db
    .insertInto("newsletter_sendings")
    .values({
      kind: "brief",
      day,
      story_ids: JSON.stringify(await pickBriefStories(db, now)),
      status: "draft",
      scheduled_at: at,
      created_at: now.toISOString(),
    })
    .onConflict((oc) => oc.column("day").doNothing())
    .execute();
}

/** Drafts whose hour came are queued, their stories chosen again unless an editor changed them. */
export async function queueDueBriefs(db: DB, now: Date): Promise<number> {
  const due = await db
    .selectFrom("newsletter_sendings")
    .select(["id", "edited_at"])
    .where("status", "=", "draft")
    .where("scheduled_at", "<=", now.toISOString())
    .execute();
  let queued = 0;
  for (const draft of due) {
    const stories = draft.edited_at ? {} : { story_ids: JSON.stringify(await pickBriefStories(db, now)) };
    const result = await db
      .updateTable("newsletter_sendings")
      .set({ status: "queued", ...stories })
      .where("id", "=", draft.id)
      .where("status", "=", "draft")
      .executeTakeFirst();
    queued += Number(result.numUpdatedRows);
  }
  return queued;
}

/** A mail for each story alert of the last hour that has none: the push rule decides, the story's uniqueness makes it once. */
export async function queueAlertMails(db: DB, now: Date): Promise<number> {
  const alerts = await db
    .selectFrom("push_alerts")
    .leftJoin("newsletter_sendings", "newsletter_sendings.article_id", "push_alerts.article_id")
    .select("push_alerts.article_id")
    .where("push_alerts.live_update_id", "is", null)
    .where("push_alerts.created_at", ">=", new Date(now.getTime() - ALERT_MAIL_WINDOW_MS).toISOString())
    .where("newsletter_sendings.id", "is", null)
    .execute();
  for (const { article_id } of alerts) {
    await db
      .insertInto("newsletter_sendings")
      .values({
        kind: "breaking",
        article_id,
        story_ids: JSON.stringify([article_id]),
        status: "queued",
        scheduled_at: now.toISOString(),
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column("article_id").doNothing())
      .execute();
  }
  return alerts.length;
}

function absolute(baseUrl: string, path: string): string {
  return new URL(path, `${baseUrl}/`).toString();
}

function excerptOf(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_LENGTH ? `${flat.slice(0, EXCERPT_LENGTH).replace(/\s+\S*$/, "")}…` : flat;
}

export type SendingDraft = { kind: SendingKind; storyIds: string[]; opening: string; day: string };

/** The mail of a sending, links tagged for our analytics, each recipient's token still to fill in. */
export async function mailOf(
  db: DB,
  baseUrl: string,
  draft: SendingDraft,
): Promise<{ mail: RenderedMail; category: string | null }> {
  const [articles, { settings }] = await Promise.all([listArticlesByIds(db, draft.storyIds), readSiteSettings(db)]);
  const stories: MailStory[] = articles.map((article) => ({
    title: article.title,
    excerpt: excerptOf(article.excerpt),
    url: taggedLink(absolute(baseUrl, pathOf(article)), "newsletter"),
    image: article.image && !article.isVideo ? absolute(baseUrl, article.image) : null,
    label: categoryLabel(article.category),
  }));
  const manage = preferencesLink(baseUrl, TOKEN_SLOT);
  const mail = renderMail({
    kind: draft.kind,
    siteName: settings.name,
    siteUrl: taggedLink(`${baseUrl}/`, "newsletter"),
    logo: settings.images.logo ? absolute(baseUrl, settings.images.logo) : null,
    dateLine: formatDay(`${draft.day}T12:00:00Z`),
    opening: draft.opening,
    stories,
    preferencesUrl: manage,
    unsubscribeUrl: `${manage}#unsubscribe`,
  });
  return { mail, category: articles[0]?.category ?? null };
}

/** Who a sending goes to: confirmed subscribers who chose it. */
function recipientsOf(kind: SendingKind, category: string | null) {
  if (kind === "brief") return sql`brief = true`;
  if (category === "breaking" || category === null) return sql`breaking = true`;
  return sql`categories like ${`%"${category}"%`}`;
}

/**
 * Prepares queued sendings: each rendered, then marked sending with its mail and its deliveries made
 * in one transaction that only the first process to get there commits.
 */
export async function prepareQueued(db: DB, baseUrl: string, now: Date): Promise<number> {
  const queued = await db
    .selectFrom("newsletter_sendings")
    .select(["id", "kind", "story_ids", "opening", "day", "scheduled_at"])
    .where("status", "=", "queued")
    .orderBy("id")
    .limit(5)
    .execute();
  let made = 0;
  for (const sending of queued) {
    const id = Number(sending.id);
    const day = sending.day ?? beirutDay(new Date(sending.scheduled_at));
    const { mail, category } = await mailOf(db, baseUrl, {
      kind: sending.kind,
      storyIds: JSON.parse(sending.story_ids) as string[],
      opening: sending.opening,
      day,
    });
    made += await db.transaction().execute(async (trx) => {
      const claimed = await trx
        .updateTable("newsletter_sendings")
        .set({
          status: "sending",
          subject: mail.subject,
          html: mail.html,
          plain: mail.text,
          prepared_at: now.toISOString(),
        })
        .where("id", "=", id)
        .where("status", "=", "queued")
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 0n) return 0;
      const count = await insertDeliveries(trx, id, sending.kind, category, now);
      await trx.updateTable("newsletter_sendings").set({ recipients: count }).where("id", "=", id).execute();
      return count;
    });
  }
  return made;
}

async function insertDeliveries(
  trx: DB,
  id: number,
  kind: SendingKind,
  category: string | null,
  now: Date,
): Promise<number> {
  const postgres = dialectName(trx) === "postgres";
  const at = postgres ? sql`cast(${now.toISOString()} as timestamptz)` : sql`${now.toISOString()}`;
  const sendingId = postgres ? sql`cast(${id} as bigint)` : sql`${id}`;
  const result = await sql`insert into newsletter_deliveries (sending_id, subscriber_id, due_at)
    select ${sendingId}, id, ${at} from newsletter_subscribers where status = 'confirmed' and ${recipientsOf(kind, category)}`.execute(
    trx,
  );
  return Number(result.numAffectedRows ?? 0);
}

/** Sendings with no delivery left are sent. */
export async function finishSendings(db: DB): Promise<void> {
  await db
    .updateTable("newsletter_sendings")
    .set({ status: "sent" })
    .where("status", "=", "sending")
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("newsletter_deliveries")
            .select("id")
            .whereRef("newsletter_deliveries.sending_id", "=", "newsletter_sendings.id"),
        ),
      ),
    )
    .execute();
}
