import { sql } from "kysely";
import { pathOf } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import { getArticle } from "~/server/news/articles-read.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";

/** What a notification shows, as every delivery of an alert sends it (with its own open token added). */
export type PushPayload = {
  alertId: number;
  title: string;
  body: string;
  url: string;
  image: string | null;
  icon: string;
  tag: string;
};

const BODY_LENGTH = 160;
const PREPARED_AT_ONCE = 20;

function absolute(baseUrl: string, path: string): string {
  return new URL(path, `${baseUrl}/`).toString();
}

/** A live update sent as an alert (decision 040): its text; null once deleted. */
async function liveUpdateOfAlert(db: DB, updateId: string): Promise<{ id: string; text: string } | null> {
  return (
    (await db.selectFrom("live_updates").select(["id", "text"]).where("id", "=", updateId).executeTakeFirst()) ?? null
  );
}

/**
 * Makes the deliveries of alerts that have none yet: each alert's payload and subscriptions matched
 * in one conditional transaction, so two processes doing this at once make them once.
 */
export async function prepareAlerts(db: DB, baseUrl: string, now: Date): Promise<number> {
  const waiting = await db
    .selectFrom("push_alerts")
    .select(["id", "article_id", "live_update_id"])
    .where("payload", "is", null)
    .orderBy("id")
    .limit(PREPARED_AT_ONCE)
    .execute();
  if (waiting.length === 0) return 0;
  const { settings } = await readSiteSettings(db);
  let made = 0;
  for (const alert of waiting) {
    const id = Number(alert.id);
    const update = alert.live_update_id ? await liveUpdateOfAlert(db, alert.live_update_id) : null;
    const article = await getArticle(db, alert.article_id);
    const payload: PushPayload | null = article &&
      (!alert.live_update_id || update) && {
        alertId: id,
        title: article.title,
        body: (update?.text ?? (article.story.standfirst || article.content))
          .replace(/\s+/g, " ")
          .trim()
          .slice(0, BODY_LENGTH),
        url: update ? `${pathOf(article)}#update-${update.id}` : pathOf(article),
        image: article.image ? absolute(baseUrl, article.image) : null,
        icon: absolute(baseUrl, settings.images.icon192 ?? "/icon-192.png"),
        tag: update ? `live-${update.id}` : `news-${article.id}`,
      };
    made += await db.transaction().execute(async (trx) => {
      const category = article?.category ?? "breaking";
      const claimed = await trx
        .updateTable("push_alerts")
        .set({ payload: JSON.stringify(payload ?? {}), category })
        .where("id", "=", id)
        .where("payload", "is", null)
        .executeTakeFirst();
      if (claimed.numUpdatedRows === 0n || !payload) return 0;
      const count = await insertDeliveries(trx, id, category, now);
      await trx.updateTable("push_alerts").set({ sent: count }).where("id", "=", id).execute();
      return count;
    });
  }
  return made;
}

async function insertDeliveries(trx: DB, alertId: number, category: string, now: Date): Promise<number> {
  const postgres = dialectName(trx) === "postgres";
  const at = postgres ? sql`cast(${now.toISOString()} as timestamptz)` : sql`${now.toISOString()}`;
  const id = postgres ? sql`cast(${alertId} as bigint)` : sql`${alertId}`;
  const matching = category === "breaking" ? sql`` : sql`where categories like ${`%"${category}"%`}`;
  await sql`insert into push_deliveries (alert_id, endpoint, due_at) select ${id}, endpoint, ${at} from push_subscriptions ${matching}`.execute(
    trx,
  );
  const row = await trx
    .selectFrom("push_deliveries")
    .select((eb) => eb.fn.countAll().as("n"))
    .where("alert_id", "=", alertId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
