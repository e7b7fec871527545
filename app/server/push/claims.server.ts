import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import type { Clock } from "~/server/platform/clock.server";
import { logger } from "~/server/platform/logger.server";
import { goneHolders, HERE, PROCESS } from "~/server/platform/process-identity.server";
import type { ClaimedDelivery } from "./outcomes.server";

/*
 * A sender's claims on deliveries (decision 037), held by a lease: every delivery a round claims
 * carries the round's token and holds until `claimed_until`, which a heartbeat moves forward while
 * the sender lives. A sender that stops gives back what it has not sent; one that dies stops
 * renewing, and its claims lapse within a lease for another sender to take, or at once for a sender
 * on the same machine, which sees that its process is gone.
 */

/** Renewals per lease: a late one or two still leave the lease held. */
const RENEWALS_PER_LEASE = 5;

export type Lease = {
  /** Takes up to `limit` due deliveries no live lease holds. */
  claim: (limit: number) => Promise<ClaimedDelivery[]>;
  /** Whether a request may start: the lease is held, renewed on time, for at least half its length yet. */
  fresh: () => boolean;
  /** Stops renewing and gives back every delivery still claimed: another sender may take them at once. */
  release: () => Promise<void>;
};

/** One turn at a time on the database: a renewal never races a claim of the same lease. */
function oneAtATime() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>): Promise<T> => {
    const next = last.then(work, work);
    last = next.catch(() => {});
    return next;
  };
}

/**
 * A lease of `leaseMs` on the site's clock. It is held while `until` (the earliest end any of its
 * claims has in the database) is ahead; a renewal that comes after it lapsed renews nothing, since
 * another sender may have taken some meanwhile: the lease is then over for good.
 */
export function takeLease(db: DB, clock: Clock, leaseMs: number): Lease {
  const token = `${PROCESS}:${randomUUID()}`;
  const turn = oneAtATime();
  let until = Number.POSITIVE_INFINITY;
  let claimed = false;
  let heartbeat: NodeJS.Timeout | undefined;

  const renew = () =>
    turn(async () => {
      const held = until;
      const end = clock.now().getTime() + leaseMs;
      if (held <= end - leaseMs) return;
      await db
        .updateTable("push_deliveries")
        .set({ claimed_until: new Date(end).toISOString() })
        .where("claimed_by", "=", token)
        .execute();
      // Renewed in time only if it committed before any of its claims could lapse and be taken.
      until = clock.now().getTime() < held ? end : Number.NEGATIVE_INFINITY;
    }).catch((error: unknown) =>
      logger.warn(
        { err: error },
        "a push sender could not renew its claims; they lapse unless the next renewal succeeds",
      ),
    );

  return {
    claim: (limit) =>
      turn(async () => {
        const now = clock.now();
        const end = now.getTime() + leaseMs;
        const rows = await claimDeliveries(db, token, now, new Date(end), limit);
        if (rows.length === 0) return rows;
        until = Math.min(until, end);
        if (!claimed) {
          claimed = true;
          heartbeat = setInterval(() => void renew(), leaseMs / RENEWALS_PER_LEASE).unref();
        }
        return rows;
      }),
    fresh: () => !claimed || until - clock.now().getTime() >= leaseMs / 2,
    release: async () => {
      clearInterval(heartbeat);
      if (!claimed) return;
      await turn(() =>
        db
          .updateTable("push_deliveries")
          .set({ claimed_until: null, claimed_by: null })
          .where("claimed_by", "=", token)
          .execute(),
      );
    },
  };
}

/** The leases held now by processes of this machine that no longer run. */
async function deadHolders(db: DB, at: string): Promise<string[]> {
  if (!HERE) return [];
  const rows = await db
    .selectFrom("push_deliveries")
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
    await sql<ClaimedDelivery>`update push_deliveries set claimed_until = ${until.toISOString()}, claimed_by = ${token}
    where id in (select id from push_deliveries where due_at <= ${at} and (claimed_until is null or claimed_until <= ${at}${theirs})
      order by due_at, id limit ${limit} ${postgres ? sql`for update skip locked` : sql``})
    returning id, alert_id, endpoint, attempts, unanswered, claimed_by`.execute(db);
  return rows.map((row) => ({
    ...row,
    id: Number(row.id),
    alert_id: Number(row.alert_id),
    attempts: Number(row.attempts),
    unanswered: Number(row.unanswered),
  }));
}

/**
 * When the next delivery becomes takeable: now for one due and unclaimed, the lapse of a claim
 * on a due one, the time of a retry; null when none waits.
 */
export async function nextTakeable(db: DB): Promise<Date | null> {
  const row = await db
    .selectFrom("push_deliveries")
    .select((eb) =>
      eb.fn
        .min(
          eb
            .case()
            .when(eb.and([eb("claimed_until", "is not", null), eb("claimed_until", ">", eb.ref("due_at"))]))
            .then(eb.ref("claimed_until"))
            .else(eb.ref("due_at"))
            .end(),
        )
        .as("at"),
    )
    .executeTakeFirst();
  return row?.at != null ? new Date(row.at) : null;
}
