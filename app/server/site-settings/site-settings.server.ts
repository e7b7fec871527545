import { storedSettingsSchema } from "~/lib/site-settings-schema";
import { frameOf, NEUTRAL_SETTINGS, type SiteFrame, type SiteSettings } from "~/lib/site-settings";
import type { DB } from "~/server/db/db.server";
import { recordSiteEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import type { ReadCache } from "~/server/platform/read-cache.server";

/*
 * The site's own settings (docs/decisions/022): one row read through the schema of lib/site-settings,
 * kept in the read cache until the outbox follower hears of any change, so no page render reads it.
 */

export type StoredSettings = {
  settings: SiteSettings;
  /** Never saved: the site shows neutral values and its admins are led to the settings page. */
  saved: boolean;
  updatedAt: string | null;
};

const SETTINGS_ROW = 1;
const CACHE_KEY = "site-settings";
const FRAME_CACHE_KEY = "site-frame";

/** The settings as stored; neutral ones when none were saved or the row cannot be read as settings. */
export async function readSiteSettings(db: DB): Promise<StoredSettings> {
  const row = await db
    .selectFrom("site_settings")
    .select(["value", "updated_at"])
    .where("id", "=", SETTINGS_ROW)
    .executeTakeFirst();
  if (!row) return { settings: NEUTRAL_SETTINGS, saved: false, updatedAt: null };
  const parsed = storedSettingsSchema.safeParse(parseJson(row.value));
  return { settings: parsed.success ? parsed.data : NEUTRAL_SETTINGS, saved: true, updatedAt: row.updated_at };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The settings every page reads, from `cache` (read once per change). */
export function cachedSiteSettings(db: DB, cache: ReadCache): Promise<StoredSettings> {
  return cache.get(CACHE_KEY, () => readSiteSettings(db));
}

/**
 * What every page's frame needs (header, footer, icons, share tags), from the cache: one object per
 * change, which the regions rendered with it are kept by (http/shell-regions).
 */
export function cachedSiteFrame(db: DB, cache: ReadCache): Promise<SiteFrame> {
  return cache.get(FRAME_CACHE_KEY, async () => {
    const stored = await cachedSiteSettings(db, cache);
    return frameOf(stored.settings, stored.saved);
  });
}

/** Stores the settings with their outbox event in one transaction: every process hears of the change. */
export async function writeSiteSettings(
  db: DB,
  settings: SiteSettings,
  updatedBy: string | null,
  now = new Date(),
): Promise<void> {
  const row = { value: JSON.stringify(settings), updated_at: now.toISOString(), updated_by: updatedBy };
  await writeWithEvents(db, async (trx) => {
    await trx
      .insertInto("site_settings")
      .values({ id: SETTINGS_ROW, ...row })
      .onConflict((oc) => oc.column("id").doUpdateSet(row))
      .execute();
    await recordSiteEvent(trx, "settings-changed");
  });
}
