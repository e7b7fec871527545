import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { goneHolders, HERE, PROCESS } from "~/server/platform/process-identity.server";

/*
 * A sender's claims on newsletter deliveries, held by a lease as the push sender's are (decision 037):
 * each claimed row names the lease and holds until `claimed_until`, which a heartbeat moves forward
 * while the sender lives. A dead sender's claims are taken at once by a sender of its machine that
 * sees its process gone, else once they lapse.
 */

export type ClaimedDelivery = { id: number; sending_id: number; subscriber_id: number; attempts: number };

export type Lease = {
  token: string;
  claim: (limit: number) => Promise<ClaimedDelivery[]>;
  /** Whether a mail may start: the lease is held for at least half its length yet. */
  fresh: () => boolean;
  release: () => Promise<void>;
};

const RENEWALS_PER_LEASE = 5;

export function takeLease(db: DB, clock: Clock, leaseMs: number): Lease {
  const token = `${PROCESS}:${randomUUID()}`;
  let until = Number.POSITIVE_INFINITY;
  let heartbeat: NodeJS.Timeout | undefined;
  let turn: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(work: () => Promise<T>): Promise<T> => {
    const next = turn.then(work, work);
    turn = next.catch(() => {});
    return next;
  };
  const renew = () =>
    oneAtATime(async () => {
      const held = until;
      const end = clock.now().getTime() + leaseMs;
      await db
        .updateTable("newsletter_deliveries")
        .set({ claimed_until: new Date(end).toISOString() })
        .where("claimed_by", "=", token)
        .execute();
      until = clock.now().getTime() < held ? end : Number.NEGATIVE_INFINITY;
    }).catch((error: unknown) => logger.warn({ err: error }, "a newsletter sender could not renew its claims"));
  return {
    token,
    claim: (limit) =>
      oneAtATime(async () => {
        const now = clock.now();
        const end = now.getTime() + leaseMs;
        const rows = await claimDeliveries(db, token, now, new Date(end), limit);
        if (rows.length > 0) {
          until = Math.min(until, end);
          heartbeat ??= setInterval(() => void renew(), leaseMs / RENEWALS_PER_LEASE).unref();
        }
        return rows;
      }),
    fresh: () => until === Number.POSITIVE_INFINITY || until - clock.now().getTime() >= leaseMs / 2,
    release: async () => {
      clearInterval(heartbeat);
      await oneAtATime(() =>
        db
          .updateTable("newsletter_deliveries")
          .set({ claimed_until: null, claimed_by: null })
          .where("claimed_by", "=", token)
          .execute(),
      );
    },
  };
}

async function deadHolders(db: DB, at: string): Promise<string[]> {
  if (!HERE) return [];
  const rows = await db
    .selectFrom("newsletter_deliveries")
    .select("claimed_by")
    .distinct()
    .where("claimed_until", ">", at)
    .where("claimed_by", "like", `${HERE}%`)
    .execute();
  return goneHolders(rows.map((row) => row.claimed_by!));
}

async function claimDeliveries(
  db: DB,
  token: string,
  now: Date,
  until: Date,
  limit: number,
): Promise<ClaimedDelivery[]> {
  const postgres = dialectName(db) === "postgres";
  const at = now.toISOString();
  const dead = await deadHolders(db, at);
  const theirs = dead.length > 0 ? sql` or claimed_by in (${sql.join(dead)})` : sql``;
  const { rows } =
    await sql<ClaimedDelivery>`update newsletter_deliveries set claimed_until = ${until.toISOString()}, claimed_by = ${token}
    where id in (select id from newsletter_deliveries where due_at <= ${at} and (claimed_until is null or claimed_until <= ${at}${theirs})
      order by due_at, id limit ${limit} ${postgres ? sql`for update skip locked` : sql``})
    returning id, sending_id, subscriber_id, attempts`.execute(db);
  return rows.map((row) => ({
    id: Number(row.id),
    sending_id: Number(row.sending_id),
    subscriber_id: Number(row.subscriber_id),
    attempts: Number(row.attempts),
  }));
}
