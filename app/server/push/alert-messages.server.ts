import webpush from "web-push";
import type { DB } from "~/server/db/db.server";
import type { VapidKeys } from "./vapid-keys.server";

/** An alert as its deliveries send it: the payload, and the headers its category gives. */
export type AlertMessage = { payload: string; urgency: "high" | "normal"; topic: string };

const ALERTS_KEPT = 100;
const VAPID_LIFETIME_S = 12 * 3600;

/** The Topic header (RFC 8030: at most 32 URL-safe characters): a newer alert of the category replaces one still undelivered. */
export function topicOf(category: string): string {
  return `akhbar-${category}`.replace(/[^A-Za-z0-9_-]/g, "").slice(0, 32);
}

/** The VAPID subject: the site's contact email, else BASE_URL when it is https, else a mailto at its host. */
export function vapidSubject(contactEmail: string, baseUrl: string): string {
  if (contactEmail) return `mailto:${contactEmail}`;
  const url = new URL(baseUrl);
  return url.protocol === "https:" ? url.origin : `mailto:webmaster@${url.hostname}`;
}

/** The prepared alerts a sender has read, at most a hundred, each read once. */
export function createAlertMessages(db: DB) {
  const messages = new Map<number, AlertMessage>();
  return {
    /** Reads the alerts of `ids` not known yet, in one query. */
    async load(ids: number[]): Promise<void> {
      const missing = [...new Set(ids)].filter((id) => !messages.has(id));
      if (missing.length === 0) return;
      if (messages.size + missing.length > ALERTS_KEPT) messages.clear();
      const rows = await db
        .selectFrom("push_alerts")
        .select(["id", "payload", "category"])
        .where("id", "in", missing)
        .execute();
      for (const row of rows) {
        if (!row.payload) continue;
        const category = row.category ?? "breaking";
        messages.set(Number(row.id), {
          payload: row.payload,
          urgency: category === "breaking" ? "high" : "normal",
          topic: topicOf(category),
        });
      }
    },
    get: (id: number): AlertMessage | undefined => messages.get(id),
  };
}

/** The VAPID Authorization header for each push service, made once per service and half its lifetime. */
export function createVapidAuthorizations() {
  const headers = new Map<string, { header: string; until: number }>();
  return (endpoint: string, keys: VapidKeys, subject: string): string => {
    const audience = new URL(endpoint).origin;
    const nowS = Math.floor(Date.now() / 1000);
    const cached = headers.get(audience);
    if (cached && cached.until > nowS) return cached.header;
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      subject,
      keys.publicKey,
      keys.privateKey,
      "aes128gcm",
      nowS + VAPID_LIFETIME_S,
    );
    headers.set(audience, { header: Authorization, until: nowS + VAPID_LIFETIME_S / 2 });
    return Authorization;
  };
}
