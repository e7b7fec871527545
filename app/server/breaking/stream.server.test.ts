import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyBreakingEvent, type BreakingEvent } from "~/lib/breaking";
import { openBreakingStream } from "./stream.server";
import type { DB } from "~/server/db/db.server";
import { createTempDatabase, type TempDatabase } from "../../../harness/temp-db";
import { createEventChannel, createEventStreams } from "~/server/http/event-stream.server";
import type { BreakingChange } from "./changes.server";
import { createTestArticle } from "../../../harness/articles";
import { deleteArticle } from "~/server/news/articles-write.server";
import { newestEventId, pruneEvents, readEventsAfter } from "~/server/outbox/outbox.server";

let temp: TempDatabase;
let db: DB;
beforeAll(async () => {
  temp = await createTempDatabase();
  db = temp.db;
});
afterAll(async () => temp.cleanup());

const breakingChannel = () => createEventChannel<BreakingChange>();
const streams = () => createEventStreams({ perIp: 20, total: 5000 });

/** The messages a new stream starts with (until `count` have come), read as the client parses them. */
async function firstMessages(
  lastEventId: string | undefined,
  count: number,
  channel = breakingChannel(),
  afterOpening = () => {},
): Promise<{ id: string; data: BreakingEvent }[]> {
  const abort = new AbortController();
  const headers: Record<string, string> = lastEventId === undefined ? {} : { "last-event-id": lastEventId };
  const response = await openBreakingStream(
    { db, channel, streams: streams() },
    new Request("http://localhost/api/breaking/stream", { signal: abort.signal, headers }),
    "10.0.0.2",
  );
  afterOpening();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  const parsed = () =>
    text
      .split("\n\n")
      .filter((block) => block.includes("data: "))
      .map((block) => ({
        id: /^id: (.*)$/m.exec(block)?.[1] ?? "",
        data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) as BreakingEvent,
      }));
  while (parsed().length < count) text += (await reader.read()).value ?? "";
  abort.abort();
  return parsed();
}

describe("where a stream starts", () => {
  it("sends a snapshot under the newest outbox id, and after that id exactly the breaking changes missed", async () => {
    const [snapshot] = await firstMessages(undefined, 1);
    expect(snapshot?.data.type).toBe("snapshot");
    expect(Number(snapshot?.id)).toBe(await newestEventId(db));

    const first = await createTestArticle(db, { title: "عاجل أول", category: "breaking" });
    await createTestArticle(db, { title: "محلي", category: "local" });
    await deleteArticle(db, first.id);
    const events = await readEventsAfter(db, Number(snapshot?.id), 10);
    const missed = await firstMessages(snapshot?.id, 2);
    expect(missed).toEqual([
      {
        id: String(events[0]!.id),
        data: { type: "created", item: expect.objectContaining({ id: first.id, title: "عاجل أول" }) },
      },
      { id: String(events[2]!.id), data: { type: "deleted", id: first.id } },
    ]);
  });

  it("sends nothing to a reader who missed nothing, then what comes next", async () => {
    await createTestArticle(db, { title: "عاجل", category: "breaking" });
    const newest = await newestEventId(db);
    const channel = breakingChannel();
    const next: BreakingChange = { type: "deleted", id: "next" };
    const messages = await firstMessages(String(newest), 1, channel, () => channel.publish(newest + 1, next));
    expect(messages).toEqual([{ id: String(newest + 1), data: next }]);
  });

  it("sends a snapshot when the last id is unknown, in the future or pruned", async () => {
    for (let i = 0; i < 3; i++) await createTestArticle(db, { title: `عاجل ${i}`, category: "breaking" });
    const newest = await newestEventId(db);
    for (const lastEventId of ["deadbeef.3", "", "-1", String(newest + 1)]) {
      expect((await firstMessages(lastEventId, 1))[0]?.data.type, lastEventId).toBe("snapshot");
    }
    await db.updateTable("events").set({ created_at: "2020-01-01T00:00:00.000Z" }).execute();
    await pruneEvents(db);
    expect((await firstMessages(String(newest - 2), 1))[0]?.data.type).toBe("snapshot");
    // The newest is kept: a reader who saw it resumes without a snapshot.
    await createTestArticle(db, { title: "عاجل بعد التقليم", category: "breaking" });
    expect((await firstMessages(String(newest), 1))[0]?.data).toMatchObject({
      type: "created",
      item: { title: "عاجل بعد التقليم" },
    });
  });
});

describe("applyBreakingEvent", () => {
  const a = { id: "a", title: "أ", slug: "أ", publishedAt: "2026-11-22T10:00:00.000Z" };
  const b = { id: "b", title: "ب", slug: null, publishedAt: "2026-11-22T11:00:00.000Z" };
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
    const source = { db, channel: breakingChannel(), streams: streams() };
    const listenersAtStart = source.channel.listenerCount();
    for (let i = 0; i < 1_000; i++) {
      const abort = new AbortController();
      const response = await openBreakingStream(
        source,
        new Request("http://localhost/api/breaking/stream", { signal: abort.signal }),
        "10.0.0.1",
      );
      const reader = response.body!.getReader();
      await reader.read();
      if (i % 2 === 0) abort.abort();
      else await reader.cancel();
    }
    expect(source.channel.listenerCount()).toBe(listenersAtStart);
    expect(source.streams.openCount()).toBe(0);
  });
});
