import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { DB } from "~/server/db/db.server";
import { createTempDatabase } from "../../../harness/temp-db";
import { createTestArticle } from "../../../harness/articles";
import { PROCESS } from "~/server/platform/process-identity.server";
import { nextTakeable, takeLease } from "./claims.server";

/*
 * Claims held by a lease (decision 037), on the engine under test: one sender's deliveries are
 * nobody else's while it renews them, given back when it releases them, and taken by another sender
 * once they lapse.
 */

let db: DB;
let cleanup: () => Promise<void>;
const start = new Date("2026-11-26T10:00:00.000Z").getTime();
let moment = start;
/** The site's clock, moved by the tests. */
const clock = { now: () => new Date(moment) };
const LEASE_MS = 500;

beforeAll(async () => {
  ({ db, cleanup } = await createTempDatabase());
});
afterAll(() => cleanup());
beforeEach(async () => {
  moment = start;
  await db.deleteFrom("push_deliveries").execute();
  await db.deleteFrom("push_alerts").execute();
});

async function deliveries(count: number, dueAt = new Date(start)): Promise<void> {
  const { id: articleId } = await createTestArticle(db, { title: "خبر", category: "breaking", silent: true });
  const alert = await db
    .insertInto("push_alerts")
    .values({
      article_id: articleId,
      kind: "breaking",
      created_at: dueAt.toISOString(),
      payload: "{}",
      category: "breaking",
      sent: count,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  const rows = Array.from({ length: count }, (_, i) => ({
    alert_id: Number(alert.id),
    endpoint: `e/${i}`,
    due_at: dueAt.toISOString(),
  }));
  await db.insertInto("push_deliveries").values(rows).execute();
}

const endsOf = async () =>
  (await db.selectFrom("push_deliveries").select("claimed_until").execute()).map((row) =>
    row.claimed_until ? new Date(row.claimed_until).getTime() : null,
  );

describe("a lease", () => {
  it("holds its claims while renewed, past its first end: another sender takes none, nor the same twice", async () => {
    await deliveries(5);
    const mine = takeLease(db, clock, LEASE_MS);
    const theirs = takeLease(db, clock, LEASE_MS);
    try {
      expect((await mine.claim(3)).map((row) => row.endpoint)).toEqual(["e/0", "e/1", "e/2"]);
      expect((await theirs.claim(3)).map((row) => row.endpoint)).toEqual(["e/3", "e/4"]);
      // The site's clock moves a little at a time; each renewal moves the claims' end with it.
      for (let step = 0; step < 6; step++) {
        moment += LEASE_MS / 4;
        await vi.waitFor(
          async () => expect(Math.min(...((await endsOf()) as number[]))).toBeGreaterThan(moment + LEASE_MS / 2),
          { timeout: 5_000, interval: 10 },
        );
      }
      expect(moment).toBeGreaterThan(start + LEASE_MS);
      expect(mine.fresh()).toBe(true);
      expect(await takeLease(db, clock, LEASE_MS).claim(10)).toEqual([]);
    } finally {
      await mine.release();
      await theirs.release();
    }
  });

  it("gives back what it holds on release: another sender takes it at once", async () => {
    await deliveries(4);
    const stopping = takeLease(db, clock, LEASE_MS);
    expect(await stopping.claim(10)).toHaveLength(4);
    await stopping.release();
    expect(await endsOf()).toEqual([null, null, null, null]);
    const next = takeLease(db, clock, LEASE_MS);
    expect(await next.claim(10)).toHaveLength(4);
    await next.release();
  });

  it("lapses when not renewed (its sender died): another sender takes its claims once the lease has passed, not before", async () => {
    await deliveries(2);
    const dead = takeLease(db, clock, 60_000);
    expect(await dead.claim(10)).toHaveLength(2);
    const other = takeLease(db, clock, LEASE_MS);
    try {
      expect(await other.claim(10)).toEqual([]);
      expect(await nextTakeable(db)).toEqual(new Date(start + 60_000));
      moment = start + 60_000;
      expect(dead.fresh()).toBe(false);
      expect((await other.claim(10)).map((row) => row.endpoint)).toEqual(["e/0", "e/1"]);
      // The lapsed lease's late release gives back nothing another sender holds.
      await dead.release();
      expect(await takeLease(db, clock, LEASE_MS).claim(10)).toEqual([]);
    } finally {
      await dead.release();
      await other.release();
    }
  });

  it("takes at once the claims of a process of this machine that no longer runs, not those of one that does", async () => {
    await deliveries(2);
    const gone = `${PROCESS.replace(/\d+$/, "4194303")}:lease`;
    const alive = `${PROCESS}:lease`;
    const far = new Date(start + 3_600_000).toISOString();
    await db
      .updateTable("push_deliveries")
      .set({ claimed_by: gone, claimed_until: far })
      .where("endpoint", "=", "e/0")
      .execute();
    await db
      .updateTable("push_deliveries")
      .set({ claimed_by: alive, claimed_until: far })
      .where("endpoint", "=", "e/1")
      .execute();
    const next = takeLease(db, clock, LEASE_MS);
    try {
      expect((await next.claim(10)).map((row) => row.endpoint)).toEqual(PROCESS.includes("/") ? ["e/0"] : []);
    } finally {
      await next.release();
    }
  });

  it("says when the next delivery is takeable: now for one due and unclaimed, later for a retry, never for none", async () => {
    await deliveries(1, new Date(start + 30_000));
    expect(await nextTakeable(db)).toEqual(new Date(start + 30_000));
    await deliveries(1);
    expect(await nextTakeable(db)).toEqual(new Date(start));
    await db.deleteFrom("push_deliveries").execute();
    expect(await nextTakeable(db)).toBeNull();
  });
});
