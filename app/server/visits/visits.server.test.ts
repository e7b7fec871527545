import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HOURLY_STATS_DAYS, VISITS_PER_ADDRESS_PER_ARTICLE } from "~/lib/constants";
import type { DB } from "~/server/db/db.server";
import { getArticle } from "~/server/news/articles-read.server";
import { createTestArticle } from "../../../harness/articles";
import { createTempDatabase } from "../../../harness/temp-db";
import { viewOf, type ViewInput } from "./view.server";
import { pruneViews, recordViews, totalSiteVisits } from "./visits.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const SECRET = "visit-secret-visit-secret-visit-secret";
const AT = new Date("2026-03-01T10:20:00Z");
const view = (input: Partial<ViewInput> & { reader: string }) =>
  viewOf(SECRET, { newsId: null, address: "203.0.113.7", source: "direct", device: "phone", at: AT, ...input });

async function article() {
  return (await createTestArticle(db, { title: "خبر", content: "نص الخبر", category: "local" })).id;
}

describe("recordViews", () => {
  it("counts each browser once a day, several behind one address apart", async () => {
    const id = await article();
    const browsers = ["browser-a-000000001", "browser-b-000000002", "browser-c-000000003"];
    const first = await recordViews(
      db,
      browsers.map((reader) => view({ newsId: id, reader })),
    );
    const again = await recordViews(db, [view({ newsId: id, reader: browsers[0]! })]);
    const nextDay = await recordViews(db, [
      view({ newsId: id, reader: browsers[0]!, at: new Date("2026-03-02T10:00:00Z") }),
    ]);
    expect([first.counted, again.counted, nextDay.counted]).toEqual([3, 0, 1]);
    expect((await getArticle(db, id))?.visits).toBe(4);
  });

  it(`counts at most ${VISITS_PER_ADDRESS_PER_ARTICLE} browsers of one address per article a day, across batches`, async () => {
    const id = await article();
    const forged = Array.from({ length: 1_000 }, (_, i) =>
      view({ newsId: id, reader: `forged-browser-${String(i).padStart(6, "0")}` }),
    );
    for (let i = 0; i < forged.length; i += 300) await recordViews(db, forged.slice(i, i + 300));
    expect((await getArticle(db, id))?.visits).toBe(VISITS_PER_ADDRESS_PER_ARTICLE);
    await recordViews(db, [view({ newsId: id, reader: "someone-else-0000001", address: "203.0.113.8" })]);
    expect((await getArticle(db, id))?.visits).toBe(VISITS_PER_ADDRESS_PER_ARTICLE + 1);
  });

  it("keeps views by hour and day, source and device, and distinct readers", async () => {
    const id = await article();
    const other = await article();
    await recordViews(db, [
      view({ newsId: id, reader: "reader-one-000000001", source: "facebook" }),
      view({ newsId: other, reader: "reader-one-000000001", source: "internal" }),
      view({ newsId: id, reader: "reader-two-000000002", source: "facebook", device: "desktop" }),
      view({ newsId: null, reader: "reader-two-000000002" }),
    ]);
    const hourly = await db
      .selectFrom("stats_hourly")
      .select(["period", "news_id", "source", "device", "views"])
      .orderBy("news_id")
      .orderBy("device")
      .execute();
    expect(hourly).toEqual(
      [
        { period: "2026-03-01T10", news_id: id, source: "facebook", device: "desktop", views: 1 },
        { period: "2026-03-01T10", news_id: id, source: "facebook", device: "phone", views: 1 },
        { period: "2026-03-01T10", news_id: other, source: "internal", device: "phone", views: 1 },
      ].sort((a, b) => (a.news_id + a.device < b.news_id + b.device ? -1 : 1)),
    );
    // 10:20 UTC is 12:20 in Beirut, the same day.
    expect(await db.selectFrom("stats_daily").select("period").distinct().execute()).toEqual([
      { period: "2026-03-01" },
    ]);
    const readers = await db.selectFrom("stats_readers").select(["period", "readers"]).orderBy("period").execute();
    expect(readers).toEqual([
      { period: "2026-03-01", readers: 2 },
      { period: "2026-03-01T10", readers: 2 },
    ]);
    expect(await totalSiteVisits(db)).toBe(1);
    expect(JSON.stringify(await db.selectFrom("stats_live").selectAll().execute())).not.toContain("reader-one");
  });

  it("prunes hourly figures after 90 days and keeps daily ones", async () => {
    const id = await article();
    await recordViews(db, [view({ newsId: id, reader: "an-old-reader-000001" })]);
    await pruneViews(db, new Date(AT.getTime() + (HOURLY_STATS_DAYS + 1) * 86_400_000));
    expect(await db.selectFrom("stats_hourly").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("stats_daily").select("views").execute()).toEqual([{ views: 1 }]);
    expect(await db.selectFrom("visit_marks").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("visit_allowances").selectAll().execute()).toEqual([]);
    expect(await db.selectFrom("stats_live").selectAll().execute()).toEqual([]);
  });
});
