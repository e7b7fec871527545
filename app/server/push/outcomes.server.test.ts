import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import { createTempDatabase } from "../../../harness/temp-db";
import { createTestArticle } from "../../../harness/articles";
import { createOutcomeWriter, recordOutcomes, type ClaimedDelivery, type Outcome } from "./outcomes.server";

/*
 * Outcomes written in batches (decision 037), on the engine under test: each counted once on its own
 * alert, and only while this process still holds the delivery's claim.
 */

let db: DB;
let cleanup: () => Promise<void>;
const now = new Date("2026-11-26T10:00:00.000Z");
const until = "2026-11-26T10:00:05.000Z";
// Two leases of this process's rounds, and another sender's.
const mine = "lease-mine";
const earlier = "lease-earlier";
const theirs = "lease-theirs";

beforeAll(async () => {
  ({ db, cleanup } = await createTempDatabase());
});
afterAll(() => cleanup());
beforeEach(async () => {
  await db.deleteFrom("push_deliveries").execute();
  await db.deleteFrom("push_alerts").execute();
  await db.deleteFrom("push_subscriptions").execute();
});

async function alertWith(endpoints: string[]): Promise<number> {
  const { id: articleId } = await createTestArticle(db, { title: "خبر", category: "breaking", silent: true });
  const alert = await db
    .insertInto("push_alerts")
    .values({
      article_id: articleId,
      kind: "breaking",
      created_at: now.toISOString(),
      payload: "{}",
      category: "breaking",
      sent: endpoints.length,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(alert.id);
}

/** A subscription and its delivery, claimed by the lease `claimedBy` after `attempts` tries, `unanswered` of them. */
async function delivery(
  alertId: number,
  endpoint: string,
  claimedBy = mine,
  attempts = 0,
  unanswered = 0,
): Promise<ClaimedDelivery> {
  await db
    .insertInto("push_subscriptions")
    .values({ endpoint, p256dh: "k", auth: "a", categories: "[]", created_at: now.toISOString() })
    .onConflict((oc) => oc.doNothing())
    .execute();
  const row = await db
    .insertInto("push_deliveries")
    .values({
      alert_id: alertId,
      endpoint,
      attempts,
      unanswered,
      due_at: now.toISOString(),
      claimed_until: until,
      claimed_by: claimedBy,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return { id: Number(row.id), alert_id: alertId, endpoint, attempts, unanswered, claimed_by: claimedBy };
}

async function countsOf(alertId: number) {
  const row = await db
    .selectFrom("push_alerts")
    .select(["sent", "delivered", "failed", "removed", "repeated"])
    .where("id", "=", alertId)
    .executeTakeFirstOrThrow();
  const counts = {
    sent: Number(row.sent),
    delivered: Number(row.delivered),
    failed: Number(row.failed),
    removed: Number(row.removed),
  };
  return Number(row.repeated) > 0 ? { ...counts, repeated: Number(row.repeated) } : counts;
}

const endpoints = async () =>
  (await db.selectFrom("push_subscriptions").select("endpoint").orderBy("endpoint").execute()).map(
    (row) => row.endpoint,
  );
const waiting = async () =>
  (
    await db
      .selectFrom("push_deliveries")
      .select(["endpoint", "attempts", "due_at", "claimed_by"])
      .orderBy("endpoint")
      .execute()
  ).map((row) => ({ ...row, attempts: Number(row.attempts), due_at: new Date(row.due_at).toISOString() }));

describe("outcomes written in one transaction", () => {
  it("counts each kind on its own alert, removes gone subscriptions, keeps retries waiting, fails the fifth attempt", async () => {
    const first = await alertWith(["e/1", "e/2", "e/3", "e/4", "e/5", "e/6"]);
    const second = await alertWith(["e/1", "e/7"]);
    const retryAt = new Date(now.getTime() + 30_000);
    const outcomes: [ClaimedDelivery, Outcome][] = [
      [await delivery(first, "e/1"), "delivered"],
      [await delivery(first, "e/2", earlier), "delivered"],
      [await delivery(first, "e/3"), "removed"],
      [await delivery(first, "e/4"), "failed"],
      [await delivery(first, "e/5"), { retryAt }],
      [await delivery(first, "e/6", earlier, 4), { retryAt }],
      [await delivery(second, "e/1"), "delivered"],
      [await delivery(second, "e/7", mine, 2), { retryAt }],
    ];
    expect(
      (
        await recordOutcomes(
          db,
          outcomes.map(([claimed, outcome]) => ({ delivery: claimed, outcome })),
        )
      ).counted,
    ).toBe(6);
    expect(await countsOf(first)).toEqual({ sent: 6, delivered: 2, removed: 1, failed: 2 });
    expect(await countsOf(second)).toEqual({ sent: 2, delivered: 1, removed: 0, failed: 0 });
    expect(await endpoints()).toEqual(["e/1", "e/2", "e/4", "e/5", "e/6", "e/7"]);
    expect(await waiting()).toEqual([
      { endpoint: "e/5", attempts: 1, due_at: retryAt.toISOString(), claimed_by: null },
      { endpoint: "e/7", attempts: 3, due_at: retryAt.toISOString(), claimed_by: null },
    ]);
  });

  it("leaves alone a delivery whose claim another process took: not counted, not deleted, not retried", async () => {
    const alert = await alertWith(["e/1", "e/2", "e/3"]);
    const taken = await Promise.all(["e/1", "e/2", "e/3"].map((endpoint) => delivery(alert, endpoint, theirs)));
    const asClaimedByMe = taken.map((claimed) => ({ ...claimed, claimed_by: mine }));
    const recorded = await recordOutcomes(db, [
      { delivery: asClaimedByMe[0]!, outcome: "delivered" },
      { delivery: asClaimedByMe[1]!, outcome: "removed" },
      { delivery: asClaimedByMe[2]!, outcome: { retryAt: new Date(now.getTime() + 10_000) } },
    ]);
    expect(recorded).toEqual({ counted: 0, held: new Set() });
    expect(await countsOf(alert)).toEqual({ sent: 3, delivered: 0, removed: 0, failed: 0 });
    expect(await endpoints()).toEqual(["e/1", "e/2", "e/3"]);
    expect((await waiting()).map((row) => [row.endpoint, row.attempts, row.claimed_by])).toEqual([
      ["e/1", 0, theirs],
      ["e/2", 0, theirs],
      ["e/3", 0, theirs],
    ]);
  });

  it("sends again once after a request the push service may have received unanswered, counted on the alert; a second unanswered one fails", async () => {
    const alert = await alertWith(["e/1", "e/2", "e/3"]);
    const retryAt = new Date(now.getTime() + 10_000);
    const recorded = await recordOutcomes(db, [
      { delivery: await delivery(alert, "e/1"), outcome: { retryAt, unanswered: true } },
      { delivery: await delivery(alert, "e/2", mine, 1, 1), outcome: { retryAt, unanswered: true } },
      { delivery: await delivery(alert, "e/3", mine, 1, 1), outcome: { retryAt } },
    ]);
    expect(recorded.counted).toBe(1);
    expect(recorded.held.size).toBe(3);
    expect(await countsOf(alert)).toEqual({ sent: 3, delivered: 0, removed: 0, failed: 1, repeated: 1 });
    expect(
      (
        await db
          .selectFrom("push_deliveries")
          .select(["endpoint", "attempts", "unanswered"])
          .orderBy("endpoint")
          .execute()
      ).map((row) => [row.endpoint, Number(row.attempts), Number(row.unanswered)]),
    ).toEqual([
      ["e/1", 1, 1],
      ["e/3", 2, 1],
    ]);
  });
});

describe("the writer", () => {
  it("writes outcomes given at once, more than one write holds, and later ones, each counted once", async () => {
    const alert = await alertWith([]);
    const claimed = await Promise.all(
      Array.from({ length: 700 }, (_, i) => delivery(alert, `e/${String(i).padStart(3, "0")}`)),
    );
    const writer = createOutcomeWriter(db);
    const kinds: Outcome[] = [
      "delivered",
      "delivered",
      "removed",
      "failed",
      { retryAt: new Date(now.getTime() + 10_000) },
    ];
    const turn = claimed.slice(0, 600).map((one, i) => writer.record(one, kinds[i % kinds.length]!));
    await Promise.all(turn);
    await Promise.all(claimed.slice(600).map((one) => writer.record(one, "delivered")));
    expect(await countsOf(alert)).toEqual({ sent: 0, delivered: 240 + 100, removed: 120, failed: 120 });
    expect((await waiting()).map((row) => row.attempts)).toEqual(Array.from({ length: 120 }, () => 1));
    expect(await endpoints()).toHaveLength(700 - 120);
  });

  it("refuses every outcome of a write that fails, writing none of them, and writes the next ones", async () => {
    const alert = await alertWith([]);
    const [good, bad] = [await delivery(alert, "e/1"), await delivery(alert, "e/2")];
    const writer = createOutcomeWriter(db);
    const written = await Promise.allSettled([
      writer.record(good, "delivered"),
      writer.record(bad, { retryAt: new Date(Number.NaN) }),
    ]);
    expect(written.map((outcome) => outcome.status === "rejected" && outcome.reason instanceof RangeError)).toEqual([
      true,
      true,
    ]);
    expect(await countsOf(alert)).toEqual({ sent: 0, delivered: 0, removed: 0, failed: 0 });
    await writer.record(good, "delivered");
    expect(await countsOf(alert)).toEqual({ sent: 0, delivered: 1, removed: 0, failed: 0 });
  });
});
