import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BreakingEvent } from "~/lib/breaking";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import {
  basedOn,
  canonicalPath,
  deletePublishedArticle,
  publishArticle,
  publishForm,
  storedVersion,
} from "../../harness/articles";
import { connectSse, type SseClient } from "../support/sse";
import type { TestServer, TestSite } from "../../harness/test-server";
import { startTwoInstancesAndDb, stopServerAndDb } from "../support/server-and-db";

/*
 * Two server processes on one database (a SQLite file, or a PostgreSQL database with
 * TEST_DATABASE=postgres): what one serves follows what the other writes, through the outbox.
 */

let site: TestSite;
let a: TestServer;
let b: TestServer;
let db: DB;
let cookie = "";

beforeAll(async () => {
  ({ site, a, b, db } = await startTwoInstancesAndDb({ PAGE_CACHE_SECONDS: "300" }));
  cookie = await signedInAs(db, a.site, { email: "desk@example.com", username: "مكتب الأخبار", role: "admin" });
}, 120_000);
afterAll(() => stopServerAndDb({ site, db }));

/** The admin's session, as `server` takes it. */
const adminOn = (server: TestServer) => ({ cookie, origin: server.url });
const stream = (server: TestServer, headers: Record<string, string> = {}) =>
  connectSse(`${server.url}/api/breaking/stream`, headers);
const events = (client: SseClient) => client.messages.map((m) => m.data as BreakingEvent);
const within2s = { timeout: 2_000, interval: 20 };

describe("two instances on one database", () => {
  it("a breaking item published through A reaches a stream held on B within 2 s, and so does its deletion", async () => {
    const reader = await stream(b);
    await reader.waitFor(1);
    const id = await publishArticle(a.url, adminOn(a), { title: "عاجل: عبر الخادم الأول", category: "breaking" });
    await vi.waitFor(
      () =>
        expect(events(reader)).toContainEqual({
          type: "created",
          item: expect.objectContaining({ id, title: "عاجل: عبر الخادم الأول" }),
        }),
      within2s,
    );
    await deletePublishedArticle(a.url, adminOn(a), id);
    await vi.waitFor(() => expect(events(reader).at(-1)).toEqual({ type: "deleted", id }), within2s);
    reader.close();
  });

  it("an edit through A changes the page B serves within 2 s, with the page cache on", async () => {
    // A breaking item, so B's stream shows when B has followed its creation (and emptied its cache for it).
    const reader = await stream(b);
    await reader.waitFor(1);
    const id = await publishArticle(a.url, adminOn(a), { title: "خبر قبل التعديل", category: "breaking" });
    await vi.waitFor(
      () => expect(events(reader)).toContainEqual({ type: "created", item: expect.objectContaining({ id }) }),
      within2s,
    );
    reader.close();
    const path = await canonicalPath(db, id);
    const page = async () => {
      const response = await fetch(`${b.url}${path}`);
      return { cache: response.headers.get("x-cache"), html: await response.text() };
    };
    await page();
    const cached = await page();
    expect(cached.cache).toBe("HIT");
    expect(cached.html).toContain("خبر قبل التعديل");
    // Home's ticker and sidebar: lists every page shares, kept by B until it hears of a change.
    const home = async () => (await fetch(`${b.url}/`)).text();
    expect(await home()).toContain("خبر قبل التعديل");

    const edited = await fetch(`${a.url}/api/news/${id}`, {
      method: "PUT",
      body: basedOn(await storedVersion(db, id), publishForm("خبر بعد التعديل", { category: "breaking" })),
      headers: adminOn(a),
    });
    expect(edited.ok).toBe(true);
    await vi.waitFor(async () => expect((await page()).html).toContain("خبر بعد التعديل"), within2s);
    const homeAfter = await home();
    expect(homeAfter).toContain("خبر بعد التعديل");
    expect(homeAfter).not.toContain("خبر قبل التعديل");
  });

  it("a reader whose instance stops resumes on the other with its last event id: nothing missed, no snapshot", async () => {
    const reader = await stream(a);
    await reader.waitFor(1);
    const before = await publishArticle(a.url, adminOn(a), { title: "عاجل: قبل التوقف", category: "breaking" });
    await reader.waitFor(2);
    const lastId = reader.messages.at(-1)!.id!;
    expect(events(reader).at(-1)).toMatchObject({ type: "created", item: { id: before } });

    await a.stop();
    const missed = await publishArticle(b.url, adminOn(b), { title: "عاجل: أثناء الانتقال", category: "breaking" });
    await publishArticle(b.url, adminOn(b), { title: "خبر محلي أثناء الانتقال" });

    const resumed = await stream(b, { "Last-Event-ID": lastId });
    const after = await publishArticle(b.url, adminOn(b), { title: "عاجل: بعد العودة", category: "breaking" });
    await resumed.waitFor(2);
    expect(events(resumed)).toEqual([
      { type: "created", item: expect.objectContaining({ id: missed }) },
      { type: "created", item: expect.objectContaining({ id: after }) },
    ]);
    expect(resumed.messages.map((m) => Number(m.id))).toEqual(
      [...resumed.messages.map((m) => Number(m.id))].sort((x, y) => x - y),
    );
    expect(Number(resumed.messages[0]!.id)).toBeGreaterThan(Number(lastId));
    resumed.close();
    reader.close();
  });

  it("after a restart too: a new process resumes a reader from its last event id", async () => {
    const reader = await stream(b);
    const [snapshot] = await reader.waitFor(1);
    reader.close();
    const missed = await publishArticle(b.url, adminOn(b), { title: "عاجل: قبل إعادة التشغيل", category: "breaking" });
    await b.stop();
    const restarted = await site.startAnother();
    const resumed = await stream(restarted, { "Last-Event-ID": snapshot!.id! });
    await resumed.waitFor(1);
    expect(events(resumed)).toEqual([{ type: "created", item: expect.objectContaining({ id: missed }) }]);
    resumed.close();
  });
});
