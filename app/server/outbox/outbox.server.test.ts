import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createTempDatabase, type TempDatabase } from "../../../harness/temp-db";
import { createTestArticle } from "../../../harness/articles";
import { onPostgres } from "../../../harness/postgres";
import { openDatabase } from "~/server/db/db.server";
import { deleteArticle, updateArticle, type ArticleChanges } from "~/server/news/articles-write.server";
import { keptEventIds, pruneEvents, readEventsAfter, recordArticleEvent, writeWithEvents } from "./outbox.server";

let temp: TempDatabase;
beforeEach(async () => (temp = await createTempDatabase()));
afterEach(async () => temp.cleanup());

const edit = (changes: Partial<ArticleChanges>): ArticleChanges => ({
  title: "عاجل",
  content: "نص",
  category: "breaking",
  status: "published",
  imageUrl: null,
  images: [],
  video: null,
  ...changes,
});

describe("article writes and their events", () => {
  it("each write records one event with the article's state before and after, in order", async () => {
    const { db } = temp;
    const { id, createdAt } = await createTestArticle(db, { title: "عاجل", category: "breaking" });
    await updateArticle(db, id, edit({ status: "draft" }));
    await updateArticle(db, id, edit({ status: "published" }));
    await updateArticle(db, id, edit({ title: "عاجل ٢" }));
    await deleteArticle(db, id);

    const events = await readEventsAfter(db, 0, 10);
    expect(events.map((e) => e.kind)).toEqual([
      "article-created",
      "article-unpublished",
      "article-published",
      "article-edited",
      "article-deleted",
    ]);
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));
    const state = { id, title: "عاجل", createdAt, category: "breaking", status: "published" };
    expect(events[0]).toMatchObject({ articleId: id, before: null, after: state });
    expect(events[3]).toMatchObject({ before: state, after: { ...state, title: "عاجل ٢" } });
    expect(events[4]).toMatchObject({ articleId: id, before: { ...state, title: "عاجل ٢" }, after: null });
  });

  it("an event that cannot be written takes its article write with it", async () => {
    const { db } = temp;
    const { id } = await createTestArticle(db, { title: "قبل" });
    // Written in the change's own transaction: the change cannot commit without its event.
    await sql`drop table events`.execute(db);
    await expect(createTestArticle(db, { title: "لن يُنشر" })).rejects.toThrow();
    await expect(updateArticle(db, id, edit({ title: "لن يُعدّل" }))).rejects.toThrow();
    await expect(deleteArticle(db, id)).rejects.toThrow();
    const rows = await db.selectFrom("news").select(["id", "title"]).execute();
    expect(rows).toEqual([{ id, title: "قبل" }]);
  });

  it("a transaction that fails after recording its event leaves neither the change nor the event", async () => {
    const { db } = temp;
    const { id } = await createTestArticle(db);
    const before = await keptEventIds(db);
    await expect(
      writeWithEvents(db, async (trx) => {
        await trx.updateTable("news").set({ title: "لم يحدث" }).where("id", "=", id).execute();
        await recordArticleEvent(trx, null, null);
        throw new Error("fails after the event");
      }),
    ).rejects.toThrow("fails after the event");
    expect(await keptEventIds(db)).toEqual(before);
    expect((await db.selectFrom("news").select("title").executeTakeFirst())?.title).toBe("خبر للاختبار");
  });
});

describe("pruneEvents", () => {
  it("removes events older than the retention time or beyond the kept count, never the newest", async () => {
    const { db } = temp;
    for (let i = 0; i < 6; i++) await createTestArticle(db);
    const { oldest, newest } = await keptEventIds(db);
    const now = Date.now();
    const dayAgo = new Date(now - 25 * 60 * 60 * 1000).toISOString();
    // The first two are old.
    await db
      .updateTable("events")
      .set({ created_at: dayAgo })
      .where("id", "<", oldest! + 2)
      .execute();

    expect(await pruneEvents(db, now, { ms: 24 * 60 * 60 * 1000, count: 100 })).toBe(2);
    expect(await keptEventIds(db)).toEqual({ oldest: oldest! + 2, newest });
    expect(await pruneEvents(db, now, { ms: 24 * 60 * 60 * 1000, count: 3 })).toBe(1);
    expect(await keptEventIds(db)).toEqual({ oldest: newest! - 2, newest });

    // All old now: only the newest stays, and says how far ids have got.
    await db.updateTable("events").set({ created_at: dayAgo }).execute();
    expect(await pruneEvents(db, now)).toBe(2);
    expect(await keptEventIds(db)).toEqual({ oldest: newest, newest });
    expect(await pruneEvents(db, now)).toBe(0);
  });

  it("is safe for several processes at once", async () => {
    const { db, url } = temp;
    for (let i = 0; i < 20; i++) await createTestArticle(db);
    await db.updateTable("events").set({ created_at: "2020-01-01T00:00:00.000Z" }).execute();
    const others = [openDatabase(url), openDatabase(url), openDatabase(url)];
    try {
      const removed = await Promise.all([db, ...others].map((connection) => pruneEvents(connection)));
      expect(removed.reduce((a, b) => a + b, 0)).toBe(19);
      expect((await keptEventIds(db)).oldest).toBe((await keptEventIds(db)).newest);
    } finally {
      await Promise.all(others.map((other) => other.destroy()));
    }
  });
});

describe.runIf(onPostgres)("event ids on PostgreSQL (SQLite runs one write transaction at a time by itself)", () => {
  it("follow commit order: a writer waits for an earlier one to commit, so no reader sees a later id first", async () => {
    const { db, url } = temp;
    const other = openDatabase(url);
    let recorded!: () => void;
    const firstRecorded = new Promise<void>((resolve) => (recorded = resolve));
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = writeWithEvents(db, async (trx) => {
      await recordArticleEvent(trx, null, null);
      recorded();
      await gate;
    });
    await firstRecorded;
    const second = createTestArticle(other, { title: "الثاني" });
    try {
      // The second writer waits for the first one's lock rather than committing a higher id before it.
      await vi.waitFor(
        async () => {
          // pg_locks lists the whole server's locks: count this database's only, not other test files' running beside.
          const { rows } = await sql<{
            waiting: number;
          }>`select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted
            and database = (select oid from pg_database where datname = current_database())`.execute(db);
          expect(rows[0]?.waiting).toBe(1);
        },
        { timeout: 5_000, interval: 20 },
      );
      expect(await readEventsAfter(db, 0, 10)).toEqual([]);
    } finally {
      release();
      await Promise.all([first, second]);
      await other.destroy();
    }
    const events = await readEventsAfter(db, 0, 10);
    expect(events.map((event) => event.after?.title ?? null)).toEqual([null, "الثاني"]);
    expect(events[0]!.id).toBeLessThan(events[1]!.id);
  });
});
