import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { CoverageMessage } from "~/lib/live-coverage";
import type { DB } from "~/server/db/db.server";
import type { TestServer, TestSite } from "../../harness/test-server";
import { createTestArticle, canonicalPath } from "../../harness/articles";
import { get, post, type Session } from "../../harness/http-client";
import { connectSse } from "../support/sse";
import { sessionAs, startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let editor: Session;
let storyId = "";
let storyPath = "";

beforeAll(async () => {
  ({ site, a, b, db } = await startTwoInstancesAndDb());
  editor = await sessionAs(db, a, { email: "live-desk@example.com", username: "مكتب التغطية", role: "editor" });
  storyId = (
    await createTestArticle(db, { title: "فرز الأصوات في طرابلس", content: "بدأ الفرز مساء الأحد", category: "local" })
  ).id;
  storyPath = await canonicalPath(db, storyId);
});
afterAll(() => stopServerAndDb({ site, db }));

const doc = (text: string) =>
  JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

async function desk(fields: Record<string, string>, server = a): Promise<void> {
  const response = await post(`${server.url}/edit-news/${storyId}/live`, fields, editor);
  expect(response.status, await response.clone().text()).toBe(200);
}

async function updateIds(): Promise<string[]> {
  return (
    await db.selectFrom("live_updates").select("id").where("news_id", "=", storyId).orderBy("created_at").execute()
  ).map((row) => row.id);
}

const changes = (messages: { data: unknown }[]) => messages.map((m) => m.data as CoverageMessage);

describe("live coverage across two instances", () => {
  it("tells readers on the other instance each change in order, resumes with Last-Event-ID anywhere, and the cached page follows each update", async () => {
    // The page before coverage: no live section, and it is now in each instance's page cache.
    expect(await (await get(`${b.url}${storyPath}`)).text()).not.toContain('data-testid="live-coverage"');
    await desk({ intent: "open" });
    // Readers connect to B from the page's event id (the page's `?after=`).
    // B drops its cached page when its follower reads the opening (its next poll on SQLite).
    const after = await vi.waitFor(
      async () => {
        const id = Number(
          (/eventId(?:"|&quot;):(\d+)/.exec(await (await get(`${b.url}${storyPath}`)).text()) ?? [])[1],
        );
        if (!(id > 0)) throw new Error("B's page does not show the coverage yet");
        return id;
      },
      { timeout: 5_000, interval: 50 },
    );
    const reader = await connectSse(`${b.url}/api/news/${storyId}/live?after=${after}`);
    expect(reader.status).toBe(200);
    expect(reader.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");

    await desk({ intent: "post", body: doc("بدأ الفرز في القلمون") });
    await desk({ intent: "post", body: doc("النتائج الأولية في الميناء"), sendAlert: "on" });
    const [first, second] = await updateIds();
    await desk({ intent: "pin", updateId: first! });
    await desk({ intent: "edit", updateId: second!, body: doc("النتائج الأولية في الميناء والبداوي") });
    await desk({ intent: "delete", updateId: first! });
    const told = changes(await reader.waitFor(5));
    expect(told.map((m) => m.type)).toEqual(["posted", "posted", "edited", "edited", "deleted"]);
    expect(told[2]).toMatchObject({ type: "edited", update: { id: first, pinned: true } });
    expect(told[3]).toMatchObject({
      type: "edited",
      update: { id: second, text: "النتائج الأولية في الميناء والبداوي", alert: true },
    });
    expect(told[4]).toEqual({ type: "deleted", id: first });
    const ids = reader.messages.map((m) => Number(m.id));
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    reader.close();

    // A reader who saw only the first change reconnects to A and gets exactly what it missed, as it stands
    // now: the pin of the update deleted since is told as its deletion.
    const resumed = await connectSse(`${a.url}/api/news/${storyId}/live`, { "Last-Event-ID": String(ids[0]) });
    expect(changes(await resumed.waitFor(4)).map((m) => m.type)).toEqual(["posted", "deleted", "edited", "deleted"]);
    expect(resumed.messages.map((m) => Number(m.id))).toEqual(ids.slice(1));
    resumed.close();

    // Without a position: the whole coverage as it is now.
    const fresh = await connectSse(`${a.url}/api/news/${storyId}/live`);
    expect(changes(await fresh.waitFor(1))[0]).toMatchObject({
      type: "snapshot",
      coverage: { state: "live" },
      updates: [{ id: second }],
    });
    fresh.close();

    // The page, from either instance's cache, already shows the update as it is now, with its anchor.
    for (const server of [a, b]) {
      const html = await (await get(`${server.url}${storyPath}`)).text();
      expect(html).toContain(`id="update-${second}"`);
      expect(html).toContain("النتائج الأولية في الميناء والبداوي");
      expect(html).not.toContain("بدأ الفرز في القلمون");
      expect(html).toMatch(/id="live-heading"[^>]*><span class="live-badge">مباشر<\/span>/);
    }
    // While live, the story's card is marked on the home page too.
    expect(await (await get(`${b.url}/`)).text()).toMatch(/<span class="live-badge">مباشر<\/span><span class="badge">/);
  });

  it("posts a desk form sent twice with the same key once, on either instance; the desk's form carries a new key at each load", async () => {
    const before = (await updateIds()).length;
    const fields = { intent: "post", body: doc("إعادة فرز صندوق في التبانة"), submissionId: "2f1c9e0a-desk-repeat" };
    await desk(fields, a);
    await desk(fields, b);
    expect(await updateIds()).toHaveLength(before + 1);
    // A key that is not one is refused in Arabic, and posts nothing.
    const refused = await post(`${a.url}/edit-news/${storyId}/live`, { ...fields, submissionId: "مفتاح" }, editor);
    expect(refused.status).toBe(400);
    expect(await updateIds()).toHaveLength(before + 1);
    await desk({ intent: "delete", updateId: (await updateIds()).at(-1)! });

    const keyOf = async () =>
      (/name="submissionId" value="([0-9a-f-]{36})"/.exec(
        await (await get(`${a.url}/edit-news/${storyId}/live`, editor)).text(),
      ) ?? [])[1];
    const [first, second] = [await keyOf(), await keyOf()];
    expect(first).toBeTruthy();
    expect(second).toBeTruthy();
    expect(first).not.toBe(second);
  });

  it("marks a live breaking story in the breaking list and the ticker", async () => {
    const breaking = (
      await createTestArticle(db, { title: "عاصفة على الساحل", content: "رياح قوية", category: "breaking" })
    ).id;
    const response = await post(`${a.url}/edit-news/${breaking}/live`, { intent: "open" }, editor);
    expect(response.status).toBe(200);
    // On B once its follower has read the opening.
    await vi.waitFor(
      async () => {
        const html = await (await get(`${b.url}/breaking`)).text();
        const list = html.slice(html.indexOf('data-testid="breaking-list"'));
        expect(list).toMatch(/<span class="live-badge">مباشر<\/span>/);
        const ticker = html.slice(html.indexOf('data-testid="breaking-ticker"'));
        expect(ticker).toContain('<span class="live-badge">مباشر</span>عاصفة على الساحل</a>');
      },
      { timeout: 5_000, interval: 50 },
    );
  });

  it("describes the coverage as a LiveBlogPosting, lists the updates in RSS, and keeps the archive once closed", async () => {
    await desk({ intent: "close", summary: "انتهى الفرز بفوز اللائحة الأولى" });
    const [update] = await updateIds();
    const html = await (await get(`${a.url}${storyPath}`)).text();
    const ld = [...html.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/g)].map(
      (m) => JSON.parse(m[1]!) as Record<string, unknown>,
    );
    const blog = ld.find((item) => item["@type"] === "LiveBlogPosting");
    expect(blog).toMatchObject({
      coverageStartTime: expect.any(String),
      coverageEndTime: expect.any(String),
      liveBlogUpdate: [{ "@type": "BlogPosting", articleBody: "النتائج الأولية في الميناء والبداوي" }],
    });
    expect(html).toContain("انتهى الفرز بفوز اللائحة الأولى");
    expect(html).not.toMatch(/id="live-heading"[^>]*><span class="live-badge">/);

    const rss = await get(`${b.url}/news/${storyId}/live.xml`);
    expect(rss.status).toBe(200);
    expect(rss.headers.get("content-type")).toBe("application/rss+xml; charset=utf-8");
    const xml = await rss.text();
    expect(xml).toContain("<title>تحديثات: فرز الأصوات في طرابلس</title>");
    expect(xml).toContain(`#update-${update}</link>`);
    expect((await get(`${b.url}/news/no-such-story/live.xml`)).status).toBe(404);
    expect((await get(`${b.url}/api/news/no-such-story/live`)).status).toBe(404);

    // A NUL or a made-up id in the form is a 4xx, never a 500, and changes nothing.
    const hostile: Record<string, string>[] = [
      { intent: "edit", updateId: "a\u0000b", body: doc("x") },
      { intent: "delete", updateId: "not-an-update" },
      { intent: "post", body: doc("نص\u0000") },
      { intent: "nonsense" },
    ];
    for (const fields of hostile) {
      const answer = await post(`${a.url}/edit-news/${storyId}/live`, fields, editor);
      expect(answer.status, JSON.stringify(fields)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(fields)).toBeLessThan(500);
    }

    // Closed: posting is refused with its message and nothing changes.
    const refused = await post(
      `${a.url}/edit-news/${storyId}/live`,
      { intent: "post", body: doc("بعد الإغلاق") },
      editor,
    );
    expect(refused.status).toBe(409);
    expect(await updateIds()).toEqual([update]);
  });

  it("replays only what stands now: a deleted update as its deletion, an edited one with its current text, from any position", async () => {
    const story = (await createTestArticle(db, { title: "جلسة مجلس البلدية", content: "تبدأ الجلسة ظهراً" })).id;
    const at = (fields: Record<string, string>) => post(`${a.url}/edit-news/${story}/live`, fields, editor);
    expect((await at({ intent: "open" })).status).toBe(200);
    expect((await at({ intent: "post", body: doc("نص سيُحذف: أسماء المرشحين المسربة") })).status).toBe(200);
    expect((await at({ intent: "post", body: doc("نص أول سيُعدّل") })).status).toBe(200);
    const rows = await db.selectFrom("live_updates").select(["id", "text"]).where("news_id", "=", story).execute();
    const deleted = rows.find((row) => row.text.startsWith("نص سيُحذف"))!.id;
    const edited = rows.find((row) => row.text.startsWith("نص أول"))!.id;
    expect((await at({ intent: "edit", updateId: edited, body: doc("النص المصحّح") })).status).toBe(200);
    expect((await at({ intent: "delete", updateId: deleted })).status).toBe(200);

    for (const [server, query, headers] of [
      [a, "?after=0", {}],
      [b, "", { "Last-Event-ID": "0" }],
    ] as const) {
      const replay = await connectSse(`${server.url}/api/news/${story}/live${query}`, headers);
      const told = changes(await replay.waitFor(5));
      replay.close();
      const raw = JSON.stringify(told);
      expect(raw).not.toContain("أسماء المرشحين المسربة");
      expect(raw).not.toContain("نص أول سيُعدّل");
      expect(told).toEqual([
        { type: "opened", coverage: expect.objectContaining({ state: "live" }) },
        { type: "deleted", id: deleted },
        { type: "posted", update: expect.objectContaining({ id: edited, text: "النص المصحّح" }) },
        { type: "edited", update: expect.objectContaining({ id: edited, text: "النص المصحّح" }) },
        { type: "deleted", id: deleted },
      ]);
    }
  });
});
