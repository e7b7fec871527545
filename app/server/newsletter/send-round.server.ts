import { sql } from "kysely";
import pLimit from "p-limit";
import type { DB } from "~/server/db/db.server";
import { refusalOf, type BulkTransport } from "~/server/mail/bulk-transport.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { takeLease, type ClaimedDelivery, type Lease } from "./claims.server";
import { linkToken, oneClickLink } from "./links.server";
import { TOKEN_SLOT } from "./mail-content.server";

/*
 * One round of sending: claim due deliveries under a lease, send each through the pooled transport,
 * and record each outcome as soon as the mail server answers, so that a killed sender leaves at most
 * the mails in flight unrecorded (decision 046).
 */

export type Outcome = "sent" | "retry" | "bounced" | "refused";

/** Attempts of a mail the server defers (4xx) before it counts as refused. */
export const MAX_ATTEMPTS = 5;
const BACKOFF_BASE_MS = 10_000;
const BACKOFF_MAX_MS = 3600_000;

export function backoffMs(attempts: number): number {
  return Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** attempts);
}

/** What an answer means: 5xx to the recipient bounces the address; other 5xx refuse this mail; 4xx and lost connections are tried again. */
export function outcomeOf(error: unknown, attempts: number): Outcome {
  const { code, command } = refusalOf(error);
  if (code !== null && code >= 500) return command?.toUpperCase().startsWith("RCPT") ? "bounced" : "refused";
  return attempts + 1 >= MAX_ATTEMPTS ? "refused" : "retry";
}

export type RoundOptions = {
  db: DB;
  clock: Clock;
  baseUrl: string;
  secret: string;
  transport: BulkTransport;
  /** The domain of Message-IDs: the From address's. */
  domain: string;
  leaseMs: number;
  /** Mails in flight at once. */
  concurrency: number;
};

type Content = { subject: string; html: string; plain: string };

async function recordOutcome(
  db: DB,
  lease: Lease,
  delivery: ClaimedDelivery,
  outcome: Outcome,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    if (outcome === "retry") {
      await trx
        .updateTable("newsletter_deliveries")
        .set({
          attempts: delivery.attempts + 1,
          due_at: new Date(now.getTime() + backoffMs(delivery.attempts)).toISOString(),
          claimed_by: null,
          claimed_until: null,
        })
        .where("id", "=", delivery.id)
        .where("claimed_by", "=", lease.token)
        .execute();
      return;
    }
    const gone = await trx
      .deleteFrom("newsletter_deliveries")
      .where("id", "=", delivery.id)
      .where("claimed_by", "=", lease.token)
      .executeTakeFirst();
    if (gone.numDeletedRows === 0n) return;
    const counted = sql.ref(outcome);
    await sql`update newsletter_sendings set ${counted} = ${counted} + 1 where id = ${delivery.sending_id}`.execute(
      trx,
    );
    if (outcome !== "bounced") return;
    await trx
      .updateTable("newsletter_subscribers")
      .set({ status: "bounced", changed_at: now.toISOString() })
      .where("id", "=", delivery.subscriber_id)
      .execute();
    await trx.deleteFrom("newsletter_deliveries").where("subscriber_id", "=", delivery.subscriber_id).execute();
  });
}

/** Sends what is due until nothing is left to claim or `stopped()`; returns how many outcomes it recorded. */
export async function sendDue(options: RoundOptions, stopped: () => boolean): Promise<number> {
  const { db, clock, baseUrl, secret, transport, domain, leaseMs, concurrency } = options;
  const lease = takeLease(db, clock, leaseMs);
  const contents = new Map<number, Content | null>();
  const limit = pLimit(concurrency);
  let handled = 0;
  const contentOf = async (id: number) => {
    if (!contents.has(id)) {
      const row = await db
        .selectFrom("newsletter_sendings")
        .select(["subject", "html", "plain"])
        .where("id", "=", id)
        .executeTakeFirst();
      contents.set(
        id,
        row?.subject && row.html && row.plain ? { subject: row.subject, html: row.html, plain: row.plain } : null,
      );
    }
    return contents.get(id) ?? null;
  };
  try {
    while (!stopped()) {
      const claimed = await lease.claim(concurrency * 4);
      if (claimed.length === 0) break;
      const addresses = new Map(
        (
          await db
            .selectFrom("newsletter_subscribers")
            .select(["id", "email"])
            .where("id", "in", [...new Set(claimed.map((delivery) => delivery.subscriber_id))])
            .where("status", "=", "confirmed")
            .execute()
        ).map((row) => [Number(row.id), row.email]),
      );
      await Promise.all(
        claimed.map((delivery) =>
          limit(async () => {
            if (stopped() || !lease.fresh()) return;
            const email = addresses.get(delivery.subscriber_id);
            const content = await contentOf(delivery.sending_id);
            if (!email || !content) {
              // Unsubscribed, bounced or erased since: nothing goes.
              await db.deleteFrom("newsletter_deliveries").where("id", "=", delivery.id).execute();
              return;
            }
            const token = linkToken(secret, "manage", email);
            let outcome: Outcome = "sent";
            try {
              await transport.send({
                to: email,
                subject: content.subject,
                html: content.html.replaceAll(TOKEN_SLOT, token),
                text: content.plain.replaceAll(TOKEN_SLOT, token),
                messageId: `<newsletter.${delivery.sending_id}.${delivery.subscriber_id}@${domain}>`,
                headers: {
                  "List-Unsubscribe": `<${oneClickLink(baseUrl, token)}>`,
                  "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                  "List-Id": `<newsletter.${domain}>`,
                },
              });
            } catch (error) {
              outcome = outcomeOf(error, delivery.attempts);
              if (outcome !== "sent")
                logger.info({ err: error, outcome }, "the mail server did not take a newsletter mail");
            }
            await recordOutcome(db, lease, delivery, outcome, clock.now());
            handled++;
          }),
        ),
      );
    }
  } finally {
    await lease.release();
  }
  return handled;
}
