import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages } from "~/lib/messages";
import { frontPageMessages as fm } from "~/lib/newsroom-messages";
import { isoToBeirutWallTime } from "~/lib/publish-time";
import { CACHE } from "~/server/platform/cache-control.server";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import type { TestServer, TestSite } from "../../harness/test-server";
import { createTestArticle, deletePublishedArticle, publishArticle } from "../../harness/articles";
import { get, post, type Session } from "../../harness/http-client";
import { startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";
import { newSiteClock } from "../support/site-clock";

/*
 * The front page editors choose (decision 031), on two server processes sharing one database
 * (SQLite, or PostgreSQL with TEST_DATABASE=postgres): a choice made through A reaches B's cached pages
 * within a second through the outbox; its end comes by the site's clock, moved instead of waited for.
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let editor: Session;
const clock = newSiteClock();
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ site, a, b, db } = await startTwoInstancesAndDb({
    PAGE_CACHE_SECONDS: "300",
    SCHEDULER_INTERVAL_MS: "200",
    ...clock.env,
  }));
  const cookie = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب التحرير", role: "editor" });
  editor = { cookie };
  const on = { cookie, origin: a.url };
  const picture = { width: 40, height: 30 };
  for (const n of [1, 2, 3, 4, 5, 6])
    ids[`p${n}`] = await publishArticle(a.url, on, { title: `خبر مصوّر ${n}`, image: picture });
  ids.sports = await publishArticle(a.url, on, { title: "خبر رياضي قديم", category: "sports" });
  ids.sportsNew = await publishArticle(a.url, on, { title: "خبر رياضي جديد", category: "sports" });
  ids.ad = await publishArticle(a.url, on, { title: "إعلان صيدلية مناوبة", category: "advertisement", image: picture });
  ids.draft = (
    await createTestArticle(db, {
      title: "مسودة كاتب لم تنشر",
      images: ["/media/news-images/draft.webp"],
      status: "draft",
    })
  ).id;
}, 180_000);
afterAll(async () => {
  await stopServerAndDb({ site, db });
  clock.remove();
});

const within1s = { timeout: 1_000, interval: 20 };
const within5s = { timeout: 5_000, interval: 50 };
const wallTime = (msFromNow: number) => isoToBeirutWallTime(new Date(clock.now() + msFromNow).toISOString());

/** The ids of the slider's slides on `html`, in order. */
function slides(html: string): string[] {
  const start = html.indexOf('data-testid="slider"');
  if (start < 0) return [];
  const slider = html.slice(start, html.indexOf("</section>", start));
  return [...slider.matchAll(/href="\/news\/([^"/]+)(?:\/[^"]*)?"/g)].map((match) => decodeURIComponent(match[1]!));
}

async function page(server: TestServer, path: string, session?: Session) {
  const response = session ? await get(`${server.url}${path}`, session) : await fetch(`${server.url}${path}`);
  return {
    status: response.status,
    cache: response.headers.get("x-cache"),
    cacheControl: response.headers.get("cache-control"),
    html: await response.text(),
  };
}

function choose(place: string, newsId: string, until = wallTime(3_600_000)) {
  return post(`${a.url}/dashboard/front-page`, { intent: "choose", place, newsId, until }, editor);
}

describe("the front page editors choose", () => {
  it("fills the slider by the rule while nothing is chosen: no advertisement, no draft", async () => {
    const home = await page(b, "/");
    expect(slides(home.html)).toEqual([ids.p6, ids.p5, ids.p4, ids.p3]);
    expect(slides(home.html)).not.toContain(ids.ad);
  });

  it("a lead story, a slider order and a category pin chosen on A show on B's cached pages within a second", async () => {
    // Both pages held in B's cache first (B may still be following the set-up's events, each of which empties it).
    await vi.waitFor(
      async () => expect([(await page(b, "/")).cache, (await page(b, "/sports")).cache]).toEqual(["HIT", "HIT"]),
      within5s,
    );

    for (const [place, id] of [
      ["1", ids.p1],
      ["2", ids.p2],
      ["pin", ids.sports],
    ] as const) {
      const answer = await choose(place, id!);
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe("/dashboard/front-page?done=saved");
    }
    await vi.waitFor(
      async () => expect(slides((await page(b, "/")).html)).toEqual([ids.p1, ids.p2, ids.p6, ids.p5]),
      within1s,
    );
    await vi.waitFor(async () => {
      const sports = (await page(b, "/sports")).html;
      expect(sports.indexOf("خبر رياضي قديم")).toBeGreaterThan(0);
      expect(sports.indexOf("خبر رياضي قديم")).toBeLessThan(sports.indexOf("خبر رياضي جديد"));
    }, within1s);
    const home = (await page(b, "/")).html;
    const section = home.slice(home.indexOf('data-testid="section-sports"'));
    expect(section.indexOf("خبر رياضي قديم")).toBeLessThan(section.indexOf("خبر رياضي جديد"));

    const screen = await page(a, "/dashboard/front-page", editor);
    expect(screen.status).toBe(200);
    expect(screen.html).toContain(fm.lead);
    expect(screen.html).toContain("خبر مصوّر 1");
  });

  it("refuses bad choices with Arabic messages, a 400 and nothing changed", async () => {
    const before = await db.selectFrom("front_page_placements").selectAll().orderBy("slot").execute();
    const refusals: [Record<string, string>, string][] = [
      [{ intent: "choose", place: "5", newsId: ids.p3!, until: wallTime(3_600_000) }, fm.placeInvalid],
      [{ intent: "choose", place: "1", newsId: ids.p3!, until: wallTime(-3_600_000) }, fm.untilPast],
      [{ intent: "choose", place: "1", newsId: ids.draft!, until: wallTime(3_600_000) }, fm.notPublished],
      [{ intent: "choose", place: "1", newsId: "no-such-story", until: wallTime(3_600_000) }, fm.notPublished],
      [{ intent: "choose", place: "1", newsId: ids.sports!, until: wallTime(3_600_000) }, fm.needsPicture],
      [{ intent: "choose", place: "1", newsId: ids.p3!, until: "9".repeat(5000) }, fm.untilInvalid],
      [{ intent: "choose", place: "1", newsId: `${ids.p3}\u0000`, until: wallTime(3_600_000) }, messages.textHasNul],
      [{ intent: "remove", slot: "slide:5" }, fm.slotInvalid],
    ];
    for (const [form, message] of refusals) {
      const answer = await post(`${a.url}/dashboard/front-page`, form, editor);
      expect(answer.status, JSON.stringify(form).slice(0, 100)).toBe(400);
      expect(await answer.text()).toContain(message);
    }
    expect(await db.selectFrom("front_page_placements").selectAll().orderBy("slot").execute()).toEqual(before);
  });

  it("a chosen story that is no longer published drops out of B's slider, its slot filled", async () => {
    await deletePublishedArticle(a.url, { cookie: editor.cookie, origin: a.url }, ids.p2!);
    await vi.waitFor(
      async () => expect(slides((await page(b, "/")).html)).toEqual([ids.p1, ids.p6, ids.p5, ids.p4]),
      within1s,
    );
  });

  it("removing a choice is one click, and reaches B", async () => {
    const answer = await post(`${a.url}/dashboard/front-page`, { intent: "remove", slot: "slide:1" }, editor);
    expect(answer.status).toBe(302);
    await vi.waitFor(
      async () => expect(slides((await page(b, "/")).html)).toEqual([ids.p6, ids.p5, ids.p4, ids.p3]),
      within1s,
    );
  });

  it("a choice ends at its time on the site's clock: the scheduler removes it once and B's pages change", async () => {
    expect((await choose("1", ids.p1!, wallTime(2 * 3_600_000))).status).toBe(302);
    await vi.waitFor(async () => expect(slides((await page(b, "/")).html)[0]).toBe(ids.p1), within1s);
    const events = async () =>
      (await db.selectFrom("events").select("id").where("kind", "=", "front-page-changed").execute()).length;
    const before = await events();
    clock.moveTo(clock.now() + 3 * 3_600_000);
    await vi.waitFor(
      async () => expect(slides((await page(b, "/")).html)).toEqual([ids.p6, ids.p5, ids.p4, ids.p3]),
      within5s,
    );
    // The pin (an hour) ended in the same round: one event for both, whichever process ran it.
    await vi.waitFor(
      async () =>
        expect((await page(b, "/sports")).html.indexOf("خبر رياضي جديد")).toBeLessThan(
          (await page(b, "/sports")).html.indexOf("خبر رياضي قديم"),
        ),
      within5s,
    );
    expect(await events()).toBe(before + 1);
    expect(await db.selectFrom("front_page_placements").selectAll().execute()).toEqual([]);
  });
});

describe("a signed-in editor sees the public pages as readers do", () => {
  it("no draft on home, a category, search, breaking or the latest list; the draft itself only as a marked preview, 404 for readers", async () => {
    const home = await page(a, "/", editor);
    expect(home.html).not.toContain("مسودة كاتب لم تنشر");
    expect(slides(home.html)).not.toContain(ids.draft);
    for (const path of ["/local", "/search?query=مسودة", "/breaking", "/api/latest"]) {
      expect((await page(a, path, editor)).html, path).not.toContain("مسودة كاتب لم تنشر");
    }
    const preview = await page(a, `/news/${ids.draft}`, editor);
    expect(preview.status).toBe(200);
    expect(preview.html).toContain(fm.previewNotice);
    expect(preview.html).toMatch(/<meta name="robots" content="noindex/);
    expect(preview.cacheControl).toBe(CACHE.personal);
    const reader = await page(a, `/news/${ids.draft}`);
    expect(reader.status).toBe(404);
    const published = await page(a, `/news/${ids.p1}`, editor);
    expect(published.html).not.toContain(fm.previewNotice);
  });
});
