import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import { createTestArticle } from "../../../harness/articles";
import { createTempDatabase } from "../../../harness/temp-db";
import { viewOf } from "~/server/visits/view.server";
import { recordViews } from "~/server/visits/visits.server";
import type { Device, Source } from "~/lib/reader-classes";
import { readLive } from "./read-live.server";
import { readStats } from "./read-stats.server";
import { readStoryStats } from "./read-story-stats.server";
import { statsCsv } from "./stats-csv.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const SECRET = "stats-secret-stats-secret-stats-secret";
// 09:30 UTC is 11:30 in Beirut on 1 March.
const NOW = new Date("2026-03-01T09:30:00Z");
let n = 0;
async function views(newsId: string, count: number, source: Source = "direct", device: Device = "phone", at = NOW) {
  await recordViews(
    db,
    Array.from({ length: count }, () =>
      viewOf(SECRET, {
        newsId,
        reader: `stats-reader-${String(++n).padStart(8, "0")}`,
        address: `198.51.100.${n % 250}`,
        source,
        device,
        at,
      }),
    ),
  );
}
async function user(id: string, name: string) {
  const at = NOW.toISOString();
  await db
    .insertInto("user")
    .values({
      id,
      name,
      email: `${id}@example.com`,
      emailVerified: 1,
      image: null,
      createdAt: at,
      updatedAt: at,
      role: "author",
      disabledAt: null,
      bio: null,
    })
    .execute();
}

describe("readStats", () => {
  it("reports the range's views by hour, stories, category, author, source and device; an author sees only their own", async () => {
    await user("huda", "هدى");
    await user("sami", "سامي");
    const hers = (await createTestArticle(db, { title: "خبرها", category: "sports", authorId: "huda" })).id;
    const his = (await createTestArticle(db, { title: "خبره", category: "local", authorId: "sami" })).id;
    await views(hers, 3, "facebook", "phone");
    await views(his, 2, "whatsapp", "desktop");
    await views(his, 1, "direct", "phone", new Date("2026-02-27T09:00:00Z"));

    const all = await readStats(db, { range: "today", scope: { authorId: null }, now: NOW });
    expect(all.totals).toEqual({ views: 5, readers: 5 });
    expect(all.series.find((p) => p.period === "2026-03-01T09")).toMatchObject({ views: 5, readers: 5 });
    // Beirut's day began at 22:00 UTC the day before.
    expect(all.series[0]?.period).toBe("2026-02-28T22");
    expect(all.top.map((r) => [r.label, r.views])).toEqual([
      ["خبرها", 3],
      ["خبره", 2],
    ]);
    expect(all.categories.map((r) => [r.key, r.views])).toEqual([
      ["sports", 3],
      ["local", 2],
    ]);
    expect(all.authors.map((r) => [r.label, r.views])).toEqual([
      ["هدى", 3],
      ["سامي", 2],
    ]);
    expect(all.sources.map((r) => [r.key, r.views])).toEqual([
      ["facebook", 3],
      ["whatsapp", 2],
    ]);
    expect(all.devices.map((r) => [r.key, r.views])).toEqual([
      ["phone", 3],
      ["desktop", 2],
    ]);

    const week = await readStats(db, { range: "7d", scope: { authorId: null }, now: NOW });
    expect(week.series).toHaveLength(7);
    expect(week.totals.views).toBe(6);

    const own = await readStats(db, { range: "7d", scope: { authorId: "sami" }, now: NOW });
    expect(own.totals).toEqual({ views: 3, readers: null });
    expect(own.top.map((r) => r.key)).toEqual([his]);
    expect(JSON.stringify(own)).not.toContain("خبرها");
  });

  it("exports any table as CSV with a BOM, quoting and formula-safe cells", async () => {
    const id = (await createTestArticle(db, { title: '=HYPERLINK("x"), خبر' })).id;
    await views(id, 2);
    const report = await readStats(db, { range: "today", scope: { authorId: null }, now: NOW });
    const csv = statsCsv(report, "top", {
      hour: "الساعة",
      day: "اليوم",
      key: "المعرّف",
      label: "الاسم",
      views: "المشاهدات",
      readers: "القراء",
    });
    expect(csv).toBe(`\uFEFFالمعرّف,الاسم,المشاهدات\r\n${id},"'=HYPERLINK(""x""), خبر",2\r\n`);
  });
});

describe("readLive and readStoryStats", () => {
  it("counts readers of the last five minutes and a story's curve and sources", async () => {
    const id = (await createTestArticle(db, { title: "خبر الآن" })).id;
    await views(id, 2, "push", "phone", new Date(NOW.getTime() - 2 * 60_000));
    await views(id, 1, "x", "phone", new Date(NOW.getTime() - 20 * 60_000));
    expect(await readLive(db, { scope: { authorId: null }, now: NOW })).toEqual({
      readers: 2,
      stories: [{ id, title: "خبر الآن", readers: 2 }],
    });
    expect(await readLive(db, { scope: { authorId: "nobody" }, now: NOW })).toEqual({ readers: 0, stories: [] });

    const story = await readStoryStats(db, {
      id,
      publishedAt: new Date(NOW.getTime() - 3 * 3_600_000).toISOString(),
      now: NOW,
    });
    expect(story.hourly).toBe(true);
    expect(story.total).toBe(3);
    expect(story.series.reduce((sum, p) => sum + p.views, 0)).toBe(3);
    expect(story.sources.map((r) => [r.key, r.views])).toEqual([
      ["push", 2],
      ["x", 1],
    ]);
  });
});
