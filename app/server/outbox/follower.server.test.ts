import pg from "pg";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTempDatabase, type TempDatabase } from "../../../harness/temp-db";
import { createTestArticle } from "../../../harness/articles";
import { onPostgres, TEST_POSTGRES_URL } from "../../../harness/postgres";
import { openDatabase, type DB } from "~/server/db/db.server";
import { readiness } from "~/server/site/readiness.server";
import { createOutboxFollower, FOLLOWER_TIMING, type FollowerTiming, type OutboxFollower } from "./follower.server";
import type { OutboxEvent } from "./outbox.server";

let temp: TempDatabase;
const opened: DB[] = [];
const followers: OutboxFollower[] = [];
beforeEach(async () => (temp = await createTempDatabase()));
afterEach(async () => {
  await Promise.all(followers.splice(0).map((follower) => follower.stop()));
  await Promise.all(opened.splice(0).map((db) => db.destroy()));
  await temp.cleanup();
});

/** A follower on a connection of its own, as another server process would have; it records what it reads. */
async function follow(timing?: FollowerTiming): Promise<{ follower: OutboxFollower; seen: OutboxEvent[]; db: DB }> {
  const db = openDatabase(temp.url);
  opened.push(db);
  const seen: OutboxEvent[] = [];
  const follower = createOutboxFollower(db, temp.url, (events) => seen.push(...events), timing);
  followers.push(follower);
  await follower.start();
  return { follower, seen, db };
}

const titles = (events: OutboxEvent[]) => events.map((event) => event.after?.title);

describe("the outbox follower", () => {
  it("two processes on one database both read a change made by another within 2 s, from where they started", async () => {
    await createTestArticle(temp.db, { title: "قبل البدء" });
    const [a, b] = [await follow(), await follow()];
    await createTestArticle(temp.db, { title: "الأول" });
    await createTestArticle(temp.db, { title: "الثاني" });
    for (const { seen } of [a, b]) {
      await vi.waitFor(() => expect(titles(seen)).toEqual(["الأول", "الثاني"]), { timeout: 2_000, interval: 20 });
    }
  });

  it("a write returns once the writer's own follower has read it", async () => {
    // A poll so slow that only the catch-up after the write can explain the event.
    const writer = await follow({ pollMs: 60_000, pruneEveryMs: 60_000 });
    await createTestArticle(writer.db, { title: "محلي" });
    expect(titles(writer.seen)).toEqual(["محلي"]);
  });

  it("reports itself ready while it reads, and not once it stops or falls behind", async () => {
    const { follower, db } = await follow();
    expect(await readiness(db, follower)).toEqual({ ready: true });
    expect(await readiness(db, follower, Date.now() + 10_000)).toMatchObject({
      ready: false,
      reason: expect.stringContaining("outbox was last read"),
    });
    await follower.stop();
    expect(await readiness(db, follower)).toMatchObject({
      ready: false,
      reason: expect.stringContaining("not following"),
    });
  });
});

async function listeningBackends(database: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      "select pid from pg_stat_activity where datname = $1 and query ilike 'listen%' and pid <> pg_backend_pid()",
      [database],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

async function terminate(pid: number): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await client.connect();
  try {
    await client.query("select pg_terminate_backend($1)", [pid]);
  } finally {
    await client.end();
  }
}

describe.runIf(onPostgres)("the outbox follower on PostgreSQL (LISTEN/NOTIFY: PostgreSQL only)", () => {
  const databaseName = () => new URL(temp.url).pathname.slice(1);

  it("is woken by NOTIFY, well before its fallback poll", async () => {
    const other = await follow({ pollMs: 60_000, pruneEveryMs: 60_000 });
    await vi.waitFor(async () => expect(await listeningBackends(databaseName())).toHaveLength(1), {
      timeout: 5_000,
      interval: 50,
    });
    await createTestArticle(temp.db, { title: "بالإشعار" });
    await vi.waitFor(() => expect(titles(other.seen)).toEqual(["بالإشعار"]), { timeout: 2_000, interval: 20 });
  });

  it("still delivers when its listening backend is killed, and listens again by itself", async () => {
    const other = await follow({ ...FOLLOWER_TIMING.postgres });
    await vi.waitFor(async () => expect(await listeningBackends(databaseName())).toHaveLength(1), {
      timeout: 5_000,
      interval: 50,
    });
    const [killed] = await listeningBackends(databaseName());
    await terminate(killed!);

    // Delivered whether or not the LISTEN is back yet: the fallback poll covers the gap.
    await createTestArticle(temp.db, { title: "أثناء الانقطاع" });
    await vi.waitFor(() => expect(titles(other.seen)).toEqual(["أثناء الانقطاع"]), { timeout: 5_000, interval: 20 });

    const relistened = await vi.waitFor(
      async () => {
        const pids = await listeningBackends(databaseName());
        expect(pids).toHaveLength(1);
        expect(pids[0]).not.toBe(killed);
        return pids[0];
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(relistened).toBeGreaterThan(0);
  });

  it("after listening again, is woken by NOTIFY without waiting for a poll", async () => {
    const other = await follow({ pollMs: 60_000, pruneEveryMs: 60_000 });
    await vi.waitFor(async () => expect(await listeningBackends(databaseName())).toHaveLength(1), {
      timeout: 5_000,
      interval: 50,
    });
    const [killed] = await listeningBackends(databaseName());
    await terminate(killed!);
    await vi.waitFor(
      async () => {
        const pids = await listeningBackends(databaseName());
        expect(pids).toHaveLength(1);
        expect(pids[0]).not.toBe(killed);
      },
      { timeout: 10_000, interval: 50 },
    );
    await createTestArticle(temp.db, { title: "بعد العودة" });
    await vi.waitFor(() => expect(titles(other.seen)).toEqual(["بعد العودة"]), { timeout: 2_000, interval: 20 });
  });
});
