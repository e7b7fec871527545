import { newsletterMessages as m } from "~/lib/messages";
import type { DB } from "~/server/db/db.server";
import type { SubscriberStatus } from "~/server/db/schema";
import type { Mailer } from "~/server/mail/mail.server";
import { admit } from "~/server/limits/attempt-limits.server";
import { clientKey, clientNetwork } from "~/server/platform/client-keys.server";
import { logger } from "~/server/platform/logger.server";
import { AppError } from "~/server/platform/app-error.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { parsedCategories, type Choices } from "./addresses.server";
import { addressOfToken, confirmLink, linkToken, preferencesLink } from "./links.server";

/*
 * Readers' side of the newsletter (decision 046): double opt-in, preferences by a token link, and
 * unsubscribing. A sign-up answers the same whatever the address's state, and its mail goes off the
 * request, so neither the answer nor its time tells who subscribes.
 */

export type Readers = { db: DB; mailer: Mailer | null; baseUrl: string; secret: string };

/** How long a confirmation link holds, and an unconfirmed address is kept. */
export const CONFIRM_DAYS = 7;
const DAY_MS = 24 * 3600 * 1000;
/** Sign-ups counted per address and per client network, whether or not the address is known. */
const ADDRESS_RULE = { window: 3600_000, max: 5 };
const CLIENT_RULE = { window: 3600_000, max: 30 };
/** At most one mail per address in this time, however often it is signed up. */
const MAIL_INTERVAL_MS = 10 * 60 * 1000;

function flag(value: boolean): number {
  return value ? 1 : 0;
}

function choiceColumns(choices: Choices) {
  return {
    brief: flag(choices.brief),
    breaking: flag(choices.breaking),
    categories: JSON.stringify(choices.categories),
  };
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/**
 * A sign-up: a new address is kept pending and sent its confirmation link; a pending, unsubscribed or
 * bounced one takes the new choices and is sent a link again; a confirmed one keeps its choices and is
 * sent its preferences link. Returns when the row is written; the mail goes after.
 */
export async function signUp(
  readers: Readers,
  request: { email: string; choices: Choices; clientIp: string },
  now: Date,
  afterResponse: (work: () => Promise<void>) => void,
): Promise<void> {
  const { email, choices } = request;
  const at = now.toISOString();
  const { db } = readers;
  await admit(
    db,
    [
      { key: clientKey(readers.secret, "newsletter", email), rule: ADDRESS_RULE },
      { key: clientKey(readers.secret, "newsletter", clientNetwork(request.clientIp)), rule: CLIENT_RULE },
    ],
    now.getTime(),
    (retryAfterSeconds) => new AppError("rate-limited", { message: m.tooMany, retryAfterSeconds }),
  );
  await db
    .insertInto("newsletter_subscribers")
    .values({ email, ...choiceColumns(choices), status: "pending", created_at: at, requested_at: at, changed_at: at })
    .onConflict((oc) => oc.column("email").doNothing())
    .execute();
  const row = await db
    .selectFrom("newsletter_subscribers")
    .select(["status", "requested_at", "created_at"])
    .where("email", "=", email)
    .executeTakeFirst();
  if (!row) return;
  const fresh = row.created_at === at;
  if (!fresh && now.getTime() - Date.parse(row.requested_at) < MAIL_INTERVAL_MS) return;
  const update = row.status === "confirmed" ? { requested_at: at } : { requested_at: at, ...choiceColumns(choices) };
  if (!fresh) await db.updateTable("newsletter_subscribers").set(update).where("email", "=", email).execute();
  const confirmed = row.status === "confirmed";
  afterResponse(() =>
    mailSignUp(readers, email, confirmed).catch((error: unknown) =>
      logger.error({ err: error }, "the newsletter's sign-up mail was not sent"),
    ),
  );
}

async function mailSignUp(readers: Readers, email: string, confirmed: boolean): Promise<void> {
  if (!readers.mailer) {
    logger.warn("a newsletter sign-up got no mail: SMTP_URL is not set");
    return;
  }
  const site = (await readSiteSettings(readers.db)).settings.name;
  const link = confirmed
    ? preferencesLink(readers.baseUrl, linkToken(readers.secret, "manage", email))
    : confirmLink(readers.baseUrl, linkToken(readers.secret, "confirm", email));
  await readers.mailer.send({
    to: email,
    subject: fill(confirmed ? m.alreadyMailSubject : m.confirmMailSubject, { site }),
    text: fill(confirmed ? m.alreadyMailBody : m.confirmMailBody, { site, link }),
  });
}

const linkInvalid = () => new AppError("not-found", { message: m.linkInvalid });

/** Confirms the address of a confirmation link asked for in the last seven days; a second visit finds it confirmed. */
export async function confirmSubscription(db: DB, secret: string, token: string, now: Date): Promise<void> {
  const email = addressOfToken(secret, "confirm", token);
  const row = email
    ? await db
        .selectFrom("newsletter_subscribers")
        .select(["status", "requested_at"])
        .where("email", "=", email)
        .executeTakeFirst()
    : undefined;
  if (!email || !row) throw linkInvalid();
  if (row.status === "confirmed") return;
  if (now.getTime() - Date.parse(row.requested_at) > CONFIRM_DAYS * DAY_MS) throw linkInvalid();
  const at = now.toISOString();
  await db
    .updateTable("newsletter_subscribers")
    .set({ status: "confirmed", confirmed_at: at, changed_at: at })
    .where("email", "=", email)
    .where("status", "!=", "confirmed")
    .execute();
}

export type Preferences = { email: string; status: SubscriberStatus; choices: Choices };

async function subscriberOfLink(db: DB, secret: string, token: string) {
  const email = addressOfToken(secret, "manage", token);
  const row = email
    ? await db
        .selectFrom("newsletter_subscribers")
        .select(["id", "email", "status", "brief", "breaking", "categories"])
        .where("email", "=", email)
        .executeTakeFirst()
    : undefined;
  if (!row) throw linkInvalid();
  return row;
}

export async function readPreferences(db: DB, secret: string, token: string): Promise<Preferences> {
  const row = await subscriberOfLink(db, secret, token);
  return {
    email: row.email,
    status: row.status,
    choices: {
      brief: Boolean(row.brief),
      breaking: Boolean(row.breaking),
      categories: parsedCategories(row.categories),
    },
  };
}

/** New choices from the preferences page: the link proves the address, so an unsubscribed one is confirmed again. */
export async function savePreferences(
  db: DB,
  secret: string,
  token: string,
  choices: Choices,
  now: Date,
): Promise<void> {
  const row = await subscriberOfLink(db, secret, token);
  const at = now.toISOString();
  const again = row.status !== "confirmed";
  await db
    .updateTable("newsletter_subscribers")
    .set({ ...choiceColumns(choices), ...(again ? { status: "confirmed", confirmed_at: at, changed_at: at } : {}) })
    .where("id", "=", row.id)
    .execute();
}

/** Unsubscribes at once: no further mail, and what was still to go to it is dropped. */
export async function unsubscribeByLink(db: DB, secret: string, token: string, now: Date): Promise<void> {
  const row = await subscriberOfLink(db, secret, token);
  await unsubscribe(db, Number(row.id), now);
}

export async function unsubscribe(db: DB, id: number, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("newsletter_subscribers")
      .set({ status: "unsubscribed", changed_at: now.toISOString() })
      .where("id", "=", id)
      .where("status", "!=", "unsubscribed")
      .execute();
    await trx.deleteFrom("newsletter_deliveries").where("subscriber_id", "=", id).execute();
  });
}

/** Forgets addresses never confirmed within seven days of their last sign-up. */
export async function forgetUnconfirmed(db: DB, now: Date): Promise<number> {
  const result = await db
    .deleteFrom("newsletter_subscribers")
    .where("status", "=", "pending")
    .where("requested_at", "<", new Date(now.getTime() - CONFIRM_DAYS * DAY_MS).toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
