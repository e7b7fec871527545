import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BreakingEvent } from "~/lib/breaking";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import {
  basedOn,
  canonicalPath,
  deletePublishedArticle,
  publishArticle,
  publishForm,
  storedVersion,
} from "../../harness/articles";
import { openEventSource, type EventSourceConnection, type EventSourceReader } from "../support/event-source";
import { answeredBy, startSiteBehindNginx, UPSTREAM_HEADER, type SiteBehindNginx } from "../../harness/nginx";
import { onPostgres } from "../../harness/postgres";
import type { SseMessage } from "../support/sse";
import type { TestServer } from "../../harness/test-server";
import { replacementOf, requestOnWorker, workerHolding } from "../support/worker-connections";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/*
 * Decision 012's cases across processes, on the engine under test: two instances on one database behind
 * nginx (deploy/nginx.conf), and one server of two workers. Whatever one process writes, the others'
 * readers and pages follow through the outbox; a reader whose process dies resumes on another from
 * its last event id. (Sessions and sign-in limits across instances: behind-nginx.test.ts.)
 */

const ENGINE = onPostgres ? "PostgreSQL" : "SQLite";
const ADMIN = { email: "desk@example.com", username: "مكتب الأخبار", role: "admin" as const };
const within2s = { timeout: 2_000, interval: 20 };
const STREAM = "/api/breaking/stream";

const events = (messages: SseMessage[]) => messages.map((m) => m.data as BreakingEvent);
const created = (id: string) => ({ type: "created", item: expect.objectContaining({ id }) });
const hasEvent = (reader: EventSourceReader, expected: unknown) =>
  events(reader.messages).some((event) => expect.objectContaining(expected).asymmetricMatch(event));

/** The reader's first message, the snapshot, has come. */
const snapshotCame = (reader: EventSourceReader) => reader.waitUntil("the snapshot", () => reader.messages.length > 0);

/** What a reader that came back must have got on its new connection: `expected` after `lastEventId` in order, and no snapshot. */
function expectResumed(connection: EventSourceConnection, lastEventId: string, expected: unknown[]) {
  expect(connection.lastEventId).toBe(lastEventId);
  expect(events(connection.messages)).toEqual(expected);
  const ids = connection.messages.map((m) => Number(m.id));
  expect(ids).toEqual([...ids].sort((x, y) => x - y));
  expect(ids[0]).toBeGreaterThan(Number(lastEventId));
}

describe(`two instances on one ${ENGINE} database behind nginx`, () => {
  let site: SiteBehindNginx;
  let db: DB;
  let cookie = "";
  const host = (instance: TestServer) => new URL(instance.url).host;
  /** nginx in front of instance `i` alone (A is 0, B is 1). */
  const through = (i: number) => site.pinned[i]!.url;
  const admin = () => ({ cookie, origin: site.url });

  beforeAll(async () => {
    site = await startSiteBehindNginx(2, { PAGE_CACHE_SECONDS: "300" }, { pinned: true });
    db = openDatabase(site.instances[0]!.env.DATABASE_URL);
    cookie = await signedInAs(db, { baseUrl: site.url, authSecret: site.instances[0]!.env.AUTH_SECRET }, ADMIN);
  });
  afterAll(() => stopServerAndDb({ site, db }));

  it("a breaking item published through A reaches a stream held on B within 2 s, and its deletion too", async () => {
    const reader = await openEventSource(`${through(1)}${STREAM}`);
    expect(answeredBy(reader.connections[0]!.headers[UPSTREAM_HEADER])).toBe(host(site.instances[1]!));
    await snapshotCame(reader);

    const id = await publishArticle(through(0), admin(), { title: "عاجل: عبر الخادم الأول", category: "breaking" });
    await vi.waitFor(
      () =>
        expect(events(reader.messages)).toContainEqual({
          type: "created",
          item: expect.objectContaining({ id, title: "عاجل: عبر الخادم الأول" }),
        }),
      within2s,
    );
    await deletePublishedArticle(through(0), admin(), id);
    await vi.waitFor(() => expect(events(reader.messages).at(-1)).toEqual({ type: "deleted", id }), within2s);
    reader.close();
  });

  it("an edit through A changes the page B serves within 2 s, with the page cache on", async () => {
    // A breaking item, so B's stream shows when B has followed its creation (and emptied its cache for it).
    const reader = await openEventSource(`${through(1)}${STREAM}`);
    await snapshotCame(reader);
    const id = await publishArticle(through(0), admin(), { title: "خبر قبل التعديل", category: "breaking" });
    await reader.waitUntil("B follows the creation", () => hasEvent(reader, created(id)));
    reader.close();

    const path = await canonicalPath(db, id);
    const pageOnB = async () => {
      const response = await fetch(`${through(1)}${path}`);
      return {
        cache: response.headers.get("x-cache"),
        upstream: answeredBy(response.headers.get(UPSTREAM_HEADER)),
        html: await response.text(),
      };
    };
    await pageOnB();
    const cached = await pageOnB();
    expect(cached).toMatchObject({ cache: "HIT", upstream: host(site.instances[1]!) });
    expect(cached.html).toContain("خبر قبل التعديل");

    const edited = await fetch(`${through(0)}/api/news/${id}`, {
      method: "PUT",
      body: basedOn(await storedVersion(db, id), publishForm("خبر بعد التعديل", { category: "breaking" })),
      headers: admin(),
    });
    expect(edited.status).toBe(200);
    await vi.waitFor(async () => expect((await pageOnB()).html).toContain("خبر بعد التعديل"), within2s);
  });

  it("a reader whose instance is killed reconnects through nginx, lands on the other, and misses nothing published meanwhile", async () => {
    let survivor: TestServer | undefined;
    const whileAway: string[] = [];
    let before = "";
    const reader = await openEventSource(`${site.url}${STREAM}`, {
      // Between the cut and the reconnect: the victim is dead, the survivor takes the writes.
      beforeReconnect: async () => {
        const survivorUrl = through(site.instances.indexOf(survivor!));
        whileAway.push(
          await publishArticle(survivorUrl, admin(), { title: "عاجل: أثناء الانقطاع", category: "breaking" }),
        );
        await publishArticle(survivorUrl, admin(), { title: "خبر محلي أثناء الانقطاع" });
        await deletePublishedArticle(survivorUrl, admin(), before);
      },
    });
    const victim = site.instances.find(
      (instance) => host(instance) === answeredBy(reader.connections[0]!.headers[UPSTREAM_HEADER]),
    );
    survivor = site.instances.find((instance) => instance !== victim);
    expect(victim, "nginx says which instance holds the stream").toBeDefined();
    await snapshotCame(reader);
    before = await publishArticle(site.url, admin(), { title: "عاجل: قبل الانقطاع", category: "breaking" });
    await reader.waitUntil("the item before the kill", () => hasEvent(reader, created(before)));
    const lastEventId = reader.messages.at(-1)!.id!;

    process.kill(victim!.pid, "SIGKILL");
    await reader.waitUntil(
      "the reconnect and what it missed",
      () => reader.connections.length === 2 && reader.connections[1]!.messages.length === 2,
    );
    const resumed = reader.connections[1]!;
    expect(resumed.status).toBe(200);
    expect(answeredBy(resumed.headers[UPSTREAM_HEADER]), "nginx sent the reconnect to the survivor").toBe(
      host(survivor!),
    );

    const after = await publishArticle(through(site.instances.indexOf(survivor!)), admin(), {
      title: "عاجل: بعد العودة",
      category: "breaking",
    });
    await reader.waitUntil("the item after the reconnect", () => resumed.messages.length === 3);
    expectResumed(resumed, lastEventId, [created(whileAway[0]!), { type: "deleted", id: before }, created(after)]);
    expect(reader.problems).toEqual([]);
    reader.close();
  });
});

describe(`one server of two workers (WORKERS=2) on ${ENGINE}`, () => {
  let server: TestServer;
  let db: DB;
  let cookie = "";
  const admin = () => ({ cookie, origin: server.url });
  /** Where the reader's current connection is held. */
  const holderOf = (reader: EventSourceReader) => workerHolding(server, reader.connections.at(-1)!.localPort);
  const otherThan = (pid: number) => server.workerPids().find((worker) => worker !== pid)!;

  const publishOn = async (worker: number, title: string, category = "breaking") => {
    const answer = await requestOnWorker(server, worker, "/api/news", {
      method: "POST",
      form: publishForm(title, { category }),
      headers: admin(),
    });
    expect(answer.status, answer.body).toBe(201);
    return (JSON.parse(answer.body) as { id: string }).id;
  };
  const deleteOn = async (worker: number, id: string) => {
    const answer = await requestOnWorker(server, worker, `/api/news/${id}`, { method: "DELETE", headers: admin() });
    expect(answer.status, answer.body).toBe(200);
  };

  beforeAll(async () => {
    ({ server, db } = await startServerAndDb({ WORKERS: "2", PAGE_CACHE_SECONDS: "300" }));
    cookie = await signedInAs(db, server.site, ADMIN);
  });
  afterAll(() => stopServerAndDb({ server, db }));

  it("a breaking item published through one worker reaches a stream held on the other within 2 s, and its deletion too", async () => {
    const reader = await openEventSource(`${server.url}${STREAM}`);
    await snapshotCame(reader);
    const publisher = otherThan(await holderOf(reader));

    const id = await publishOn(publisher, "عاجل: عبر العامل الأول");
    await vi.waitFor(
      () =>
        expect(events(reader.messages)).toContainEqual({
          type: "created",
          item: expect.objectContaining({ id, title: "عاجل: عبر العامل الأول" }),
        }),
      within2s,
    );
    await deleteOn(publisher, id);
    await vi.waitFor(() => expect(events(reader.messages).at(-1)).toEqual({ type: "deleted", id }), within2s);
    reader.close();
  });

  it("an edit through one worker changes the page the other serves within 2 s, with the page cache on", async () => {
    const reader = await openEventSource(`${server.url}${STREAM}`);
    await snapshotCame(reader);
    const serving = await holderOf(reader);
    const editor = otherThan(serving);
    const id = await publishOn(editor, "خبر قبل التعديل");
    await reader.waitUntil("the other worker follows the creation", () => hasEvent(reader, created(id)));
    reader.close();

    const path = await canonicalPath(db, id);
    const page = () => requestOnWorker(server, serving, path);
    await page();
    const cached = await page();
    expect(cached.headers["x-cache"]).toBe("HIT");
    expect(cached.body).toContain("خبر قبل التعديل");

    const edited = await requestOnWorker(server, editor, `/api/news/${id}`, {
      method: "PUT",
      form: basedOn(await storedVersion(db, id), publishForm("خبر بعد التعديل", { category: "breaking" })),
      headers: admin(),
    });
    expect(edited.status, edited.body).toBe(200);
    await vi.waitFor(async () => expect((await page()).body).toContain("خبر بعد التعديل"), within2s);
  });

  it(
    "a reader whose worker is killed reconnects to another and misses nothing published meanwhile",
    { timeout: 60_000 },
    async () => {
      let victim = 0;
      let survivor = 0;
      let replacement = 0;
      const whileAway: string[] = [];
      let before = "";
      const reader = await openEventSource(`${server.url}${STREAM}`, {
        // Between the cut and the reconnect: the primary replaces the dead worker (a browser waits the
        // server's 3 s retry hint), the survivor takes the writes.
        beforeReconnect: async () => {
          replacement = await replacementOf(server, victim);
          whileAway.push(await publishOn(survivor, "عاجل: أثناء الانقطاع"));
          await publishOn(survivor, "خبر محلي أثناء الانقطاع", "local");
          await deleteOn(survivor, before);
        },
      });
      await snapshotCame(reader);
      victim = await holderOf(reader);
      survivor = otherThan(victim);
      before = await publishOn(survivor, "عاجل: قبل الانقطاع");
      await reader.waitUntil("the item before the kill", () => hasEvent(reader, created(before)));
      const lastEventId = reader.messages.at(-1)!.id!;

      process.kill(victim, "SIGKILL");
      await reader.waitUntil(
        "the reconnect and what it missed",
        () => reader.connections.length === 2 && reader.connections[1]!.messages.length === 2,
        30_000,
      );
      const resumed = reader.connections[1]!;
      expect(resumed.status).toBe(200);
      const holder = await holderOf(reader);
      expect([survivor, replacement]).toContain(holder);

      const after = await publishOn(otherThan(holder), "عاجل: بعد العودة");
      await reader.waitUntil("the item after the reconnect", () => resumed.messages.length === 3);
      expectResumed(resumed, lastEventId, [created(whileAway[0]!), { type: "deleted", id: before }, created(after)]);
      expect(reader.problems).toEqual([]);
      reader.close();
    },
  );
});
