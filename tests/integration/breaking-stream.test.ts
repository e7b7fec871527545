import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { BreakingEvent } from "~/lib/breaking";
import type { DB } from "~/server/db/db.server";
import { connectSse, type SseClient } from "../support/sse";
import { signedInAs } from "../../harness/accounts";
import { basedOn, publishForm, storedVersion } from "../../harness/articles";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let cookie = "";

beforeAll(async () => {
  ({ server, db } = await startServerAndDb({ STREAM_MAX_PER_IP: "5" }));
  cookie = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب الأخبار", role: "admin" });
});
afterAll(() => stopServerAndDb({ server, db }));

const breakingForm = (title: string, category = "breaking") =>
  publishForm(title, { content: "تفاصيل الخبر", category });

async function admin(method: "POST" | "PUT" | "DELETE", path: string, body?: FormData) {
  const response = await fetch(`${server.url}${path}`, { method, body, headers: { cookie } });
  expect(response.ok).toBe(true);
  return (await response.json()) as { id: string };
}

const stream = (headers: Record<string, string> = {}) => connectSse(`${server.url}/api/breaking/stream`, headers);
/**
 * Opens `count` streams as soon as the server has let go of the closed ones: it frees a slot when the
 * hang-up reaches it, a moment after the client's close, so a refused attempt is closed and retried.
 */
function openOnceFree(count: number): Promise<SseClient[]> {
  return vi.waitFor(
    async () => {
      const clients = await Promise.all(Array.from({ length: count }, () => stream()));
      if (clients.every((client) => client.status === 200)) return clients;
      clients.forEach((client) => client.close());
      throw new Error(`stream statuses ${clients.map((client) => client.status).join(", ")}`);
    },
    { timeout: 10_000, interval: 20 },
  );
}
const events = (messages: { data: unknown }[]) => messages.map((m) => m.data as BreakingEvent);

describe("GET /api/breaking/stream", () => {
  it("sends the current list, then every create, edit and delete of a breaking item to every client, in order", async () => {
    const before = await admin("POST", "/api/news", breakingForm("عاجل: قبل الاتصال"));
    const first = await stream();
    const second = await stream();
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(first.headers.get("cache-control")).toContain("no-cache");
    expect(first.headers.get("x-accel-buffering")).toBe("no");
    expect(first.headers.get("content-encoding")).toBeNull();
    for (const client of [first, second]) {
      const [snapshot] = events(await client.waitFor(1));
      expect(snapshot).toMatchObject({ type: "snapshot", items: [{ id: before.id, title: "عاجل: قبل الاتصال" }] });
    }

    const created = await admin("POST", "/api/news", breakingForm("عاجل: إغلاق الطريق الساحلي"));
    await admin("POST", "/api/news", breakingForm("خبر محلي لا يعني قائمة العاجل", "local"));
    await admin(
      "PUT",
      `/api/news/${created.id}`,
      basedOn(await storedVersion(db, created.id), breakingForm("عاجل: إعادة فتح الطريق الساحلي")),
    );
    await admin("DELETE", `/api/news/${created.id}`);

    for (const client of [first, second]) {
      expect(events(await client.waitFor(4)).slice(1)).toEqual([
        { type: "created", item: expect.objectContaining({ id: created.id, title: "عاجل: إغلاق الطريق الساحلي" }) },
        { type: "updated", item: expect.objectContaining({ id: created.id, title: "عاجل: إعادة فتح الطريق الساحلي" }) },
        { type: "deleted", id: created.id },
      ]);
    }
    // Moving an item out of the breaking category removes it from the list.
    await admin(
      "PUT",
      `/api/news/${before.id}`,
      basedOn(await storedVersion(db, before.id), breakingForm("صار خبراً محلياً", "local")),
    );
    expect(events(await first.waitFor(5))[4]).toEqual({ type: "deleted", id: before.id });
    first.close();
    second.close();
  });

  it("a reconnect with Last-Event-ID gets exactly what it missed", async () => {
    const client = await stream();
    const [snapshot] = await client.waitFor(1);
    // An outbox id: the same on every instance and after a restart.
    expect(snapshot!.id).toMatch(/^\d+$/);
    client.close();
    const missedOne = await admin("POST", "/api/news", breakingForm("عاجل: أثناء الانقطاع ١"));
    const missedTwo = await admin("POST", "/api/news", breakingForm("عاجل: أثناء الانقطاع ٢"));
    const again = await stream({ "Last-Event-ID": snapshot!.id! });
    expect(events(await again.waitFor(2))).toEqual([
      { type: "created", item: expect.objectContaining({ id: missedOne.id }) },
      { type: "created", item: expect.objectContaining({ id: missedTwo.id }) },
    ]);
    const ids = again.messages.map((message) => Number(message.id));
    expect(ids[0]).toBeGreaterThan(Number(snapshot!.id));
    expect(ids[1]).toBeGreaterThan(ids[0]!);
    again.close();

    const unknown = await stream({ "Last-Event-ID": "deadbeef.3" });
    expect(events(await unknown.waitFor(1))[0]?.type).toBe("snapshot");
    unknown.close();
  });

  it("caps streams per address with 503 and Retry-After, and frees every slot on close, even after 1,000 cycles", async () => {
    for (let i = 0; i < 1_000; i++) {
      const client = await stream();
      client.close();
    }
    const open = await openOnceFree(5);
    expect(open.map((c) => c.status)).toEqual([200, 200, 200, 200, 200]);
    const refused = await stream();
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("30");
    open.forEach((c) => c.close());
    const [afterwards] = await openOnceFree(1);
    expect(afterwards?.status).toBe(200);
    afterwards?.close();
  }, 120_000);
});
