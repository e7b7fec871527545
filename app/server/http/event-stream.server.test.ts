import { describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import {
  createEventChannel,
  createEventStreams,
  followChannel,
  resumeAfter,
  type Opening,
  type Told,
} from "./event-stream.server";

const get = (headers: Record<string, string> = {}, url = "http://localhost/stream") => {
  const abort = new AbortController();
  return { request: new Request(url, { headers, signal: abort.signal }), abort };
};

/** Reads `response` until `done` holds for what came, as text. */
async function readUntil(response: Response, done: (text: string) => boolean): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!done(text)) {
    const { value, done: ended } = await reader.read();
    if (ended) break;
    text += value;
  }
  reader.releaseLock();
  return text;
}

describe("event channels", () => {
  it("hand each message to the listeners of its topic until they leave, its bytes made once for all of them", () => {
    const channel = createEventChannel<{ n: number }>();
    const a: Told<{ n: number }>[] = [];
    const b: Told<{ n: number }>[] = [];
    const other: Told<{ n: number }>[] = [];
    const stopA = channel.subscribe((told) => a.push(told), "story");
    channel.subscribe((told) => b.push(told), "story");
    channel.subscribe((told) => other.push(told), "another");
    channel.publish(7, { n: 1 }, "story");
    stopA();
    channel.publish(8, { n: 2 }, "story");
    expect(a.map((told) => told.id)).toEqual([7]);
    expect(b.map((told) => told.id)).toEqual([7, 8]);
    expect(other).toEqual([]);
    expect(a[0]!.bytes()).toBe(b[0]!.bytes());
    expect(new TextDecoder().decode(b[1]!.bytes())).toBe('id: 8\ndata: {"n":2}\n\n');
    expect(channel.listenerCount()).toBe(2);
  });
});

describe("resumeAfter", () => {
  it("reads Last-Event-ID, then the query parameter the stream names, and nothing that is not an id", () => {
    expect(resumeAfter(get({ "last-event-id": "42" }).request)).toBe(42);
    expect(resumeAfter(get({}, "http://localhost/stream?after=9").request, "after")).toBe(9);
    expect(resumeAfter(get({}, "http://localhost/stream?after=9").request)).toBeNull();
    for (const bad of ["", "-1", "4.2", "1e3", "1234567890123456"])
      expect(resumeAfter(get({ "last-event-id": bad }).request), bad).toBeNull();
  });
});

describe("event streams", () => {
  it("refuse over the process's total and over an address's allowance, in Arabic with Retry-After, and give both back at the close", async () => {
    const streams = createEventStreams({ perIp: 1, total: 2 });
    const first = get();
    expect((await streams.open("readers", first.request, "10.0.0.1", () => () => {})).status).toBe(200);
    const sameAddress = await streams.open("readers", get().request, "10.0.0.1", () => () => {});
    expect(sameAddress.status).toBe(503);
    expect(sameAddress.headers.get("retry-after")).toBe("30");
    expect(await sameAddress.text()).toContain(messages.serviceUnavailable);
    // The newsroom's pool is counted apart from the readers'.
    expect((await streams.open("newsroom", get().request, "10.0.0.1", () => () => {})).status).toBe(200);
    expect((await streams.open("readers", get().request, "10.0.0.2", () => () => {})).status).toBe(200);
    expect((await streams.open("readers", get().request, "10.0.0.3", () => () => {})).status).toBe(503);
    first.abort.abort();
    expect(streams.openCount()).toBe(2);
    expect((await streams.open("readers", get().request, "10.0.0.1", () => () => {})).status).toBe(200);
  });

  it("end at the stop with a last retry line, run each stream's teardown, and refuse new ones", async () => {
    const streams = createEventStreams({ perIp: 5, total: 5 });
    let tornDown = 0;
    const response = await streams.open("readers", get().request, "10.0.0.1", (send) => {
      send("data: 1\n\n");
      return () => tornDown++;
    });
    expect(response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(response.headers.get("x-accel-buffering")).toBe("no");
    streams.endAll();
    expect(await readUntil(response, () => false)).toBe("retry: 3000\n\ndata: 1\n\nretry: 3000\n\n");
    expect(tornDown).toBe(1);
    expect(streams.openCount()).toBe(0);
    expect((await streams.open("readers", get().request, "10.0.0.1", () => () => {})).status).toBe(503);
  });

  it("are each site's own: one site's stop leaves another's streams open", async () => {
    const stopping = createEventStreams({ perIp: 5, total: 5 });
    const other = createEventStreams({ perIp: 5, total: 5 });
    await other.open("readers", get().request, "10.0.0.1", () => () => {});
    stopping.endAll();
    expect(other.openCount()).toBe(1);
    expect((await other.open("readers", get().request, "10.0.0.1", () => () => {})).status).toBe(200);
    other.endAll();
  });
});

describe("followChannel", () => {
  it("tells what was published while the opening was read only when the opening did not cover it, then each message once", async () => {
    const channel = createEventChannel<string>();
    let finishOpening = (_: Opening) => {};
    const opening = new Promise<Opening>((resolve) => (finishOpening = resolve));
    const streams = createEventStreams({ perIp: 5, total: 5 });
    const response = await streams.open(
      "readers",
      get().request,
      "10.0.0.1",
      followChannel(channel, "t", () => opening),
    );
    channel.publish(10, "covered", "t");
    channel.publish(11, "after", "t");
    finishOpening({ text: 'id: 10\ndata: "opening"\n\n', upTo: 10 });
    await opening;
    channel.publish(11, "again", "t");
    channel.publish(12, "next", "t");
    const text = await readUntil(response, (so) => so.includes("next"));
    expect(text).toBe('retry: 3000\n\nid: 10\ndata: "opening"\n\nid: 11\ndata: "after"\n\nid: 12\ndata: "next"\n\n');
    streams.endAll();
  });
});
