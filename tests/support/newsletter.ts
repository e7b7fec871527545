import { writeFileSync } from "node:fs";
import { NEUTRAL_SETTINGS } from "~/lib/site-settings";
import type { DB } from "~/server/db/db.server";
import { briefMoment, nextBriefDay } from "~/server/newsletter/sendings.server";
import { writeSiteSettings } from "~/server/site-settings/site-settings.server";

/** Confirmed subscribers made straight in the database, as an import leaves them; their addresses. */
export async function confirmedSubscribers(
  db: DB,
  count: number,
  choices: { brief?: boolean; breaking?: boolean } = { brief: true },
  prefix = "reader",
): Promise<string[]> {
  const at = new Date().toISOString();
  const emails = Array.from({ length: count }, (_, i) => `${prefix}${i}@example.com`);
  for (let start = 0; start < emails.length; start += 500) {
    await db
      .insertInto("newsletter_subscribers")
      .values(
        emails.slice(start, start + 500).map((email) => ({
          email,
          brief: choices.brief ? 1 : 0,
          breaking: choices.breaking ? 1 : 0,
          status: "confirmed" as const,
          created_at: at,
          requested_at: at,
          confirmed_at: at,
          changed_at: at,
        })),
      )
      .execute();
  }
  return emails;
}

/** The site's settings with the newsletter going as fast as the tests' mail server takes it, or at `newsletterRate` a second. */
export async function fastNewsletter(db: DB, newsletterRate = 1000): Promise<void> {
  await writeSiteSettings(db, { ...NEUTRAL_SETTINGS, name: "أخبار البلدة", newsletterRate }, null);
}

/** Moves the site's clock (TEST_CLOCK_FILE) forward to `moment`, never back. */
export function moveClockTo(file: string, moment: Date, offset: { ms: number }): void {
  offset.ms = Math.max(offset.ms, moment.getTime() - Date.now());
  writeFileSync(file, String(offset.ms));
}

/** A minute after the next morning brief's hour (the settings' default, 7 in Beirut), by the site's clock now. */
export function afterNextBrief(offsetMs: number, hour = NEUTRAL_SETTINGS.newsletterHour): Date {
  const now = new Date(Date.now() + offsetMs);
  return new Date(briefMoment(nextBriefDay(now, hour), hour).getTime() + 60_000);
}
