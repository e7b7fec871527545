import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyBreakingEvent, type BreakingItem } from "~/lib/breaking";
import { openBreakingStream, openStreamCount } from "./breaking-stream.server";
import { openDatabase } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/db/migrate.server";
import { createInProcessBus } from "./live-events.server";

const dir = mkdtempSync(path.join(tmpdir(), "akhbar-stream-"));
const db = openDatabase(path.join(dir, "stream.db"));

beforeAll(async () => {
  await migrateToLatest(db);
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe("the in-process event bus", () => {
  it("numbers events and replays what a client missed, or says it cannot", () => {
    const bus = createInProcessBus();
    const item: BreakingItem = { id: "a", title: "عاجل", createdAt: "2026-11-22T10:00:00.000Z" };
    bus.publish({ type: "created", item });
    bus.publish({ type: "deleted", id: "a" });
    expect(bus.since(1)?.map((e) => e.id)).toEqual([2]);
    expect(bus.since(2)).toEqual([]);
    expect(bus.since(7)).toBeNull();
    for (let i = 0; i < 600; i++) bus.publish({ type: "deleted", id: String(i) });
    expect(bus.since(1)).toBeNull();
  });
});

describe("applyBreakingEvent", () => {
  const a = { id: "a", title: "أ", createdAt: "2026-11-22T10:00:00.000Z" };
  const b = { id: "b", title: "ب", createdAt: "2026-11-22T11:00:00.000Z" };
  it("keeps the list newest first through create, update and delete", () => {
    let items = applyBreakingEvent([], { type: "snapshot", items: [a] });
    items = applyBreakingEvent(items, { type: "created", item: b });
    expect(items.map((i) => i.id)).toEqual(["b", "a"]);
    items = applyBreakingEvent(items, { type: "updated", item: { ...a, title: "أ٢" } });
    expect(items[1]?.title).toBe("أ٢");
    expect(applyBreakingEvent(items, { type: "deleted", id: "b" }).map((i) => i.id)).toEqual(["a"]);
  });
});

describe("openBreakingStream", () => {
  it("leaves no listener and no open slot behind after 1,000 connect/disconnect cycles", async () => {
    const bus = createInProcessBus();
    const source = { db, bus, limits: { perIp: 20, total: 5000 } };
    const listenersAtStart = bus.listenerCount();
    for (let i = 0; i < 1_000; i++) {
      const abort = new AbortController();
      const response = openBreakingStream(source, new Request("http://localhost/api/breaking/stream", { signal: abort.signal }), "10.0.0.1");
      const reader = response.body!.getReader();
      await reader.read();
      if (i % 2 === 0) abort.abort();
      else await reader.cancel();
    }
    expect(bus.listenerCount()).toBe(listenersAtStart);
    expect(openStreamCount()).toBe(0);
  });
});
