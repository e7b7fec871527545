import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createCompressionThreads } from "./encoding.server";
import { renderQueue, type RenderQueue } from "./render-queue.server";
import { wholeResponses } from "./whole-response.server";

type Site = {
  base: string;
  queue: RenderQueue;
  arrived: string[];
  entered: string[];
  release: (id: string) => void;
  events: string[];
};
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});
const compression = createCompressionThreads();
afterAll(() => compression.close());

/**
 * The HTTP layer's order (server.ts): whole responses, then the queue, then the pages. `/held?id=`
 * renders once the test releases it; `/page` answers a whole page at once; `/stream` sends its head
 * and stays open; `/write` answers a POST.
 */
async function site(slots: number): Promise<Site> {
  const queue = renderQueue(slots);
  const arrived: string[] = [];
  const entered: string[] = [];
  const events: string[] = [];
  const waiters = new Map<string, () => void>();
  const released = new Set<string>();
  const app = express();
  app.use(wholeResponses(compression));
  app.use((req, _res, next) => {
    arrived.push(String(req.query.id ?? req.path));
    next();
  });
  app.use(queue);
  app.get("/held", (req, res) => {
    const id = String(req.query.id);
    entered.push(id);
    const answer = () => void res.type("html").send(`<p>${id}</p>`);
    if (released.has(id)) answer();
    else waiters.set(id, answer);
  });
  app.get("/page", (req, res) => {
    const id = String(req.query.id);
    events.push(`render ${id}`);
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
    res.writeHead = ((...args: unknown[]) => {
      events.push(`head ${id}`);
      return writeHead(...args);
    }) as typeof res.writeHead;
    res.type("html").send(`<main>${"<p>خبر عاجل من الشمال</p>".repeat(500)}</main>`);
  });
  app.get("/stream", (_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: 1\n\n");
  });
  app.post("/write", (_req, res) => void res.send("ok"));
  const server = await new Promise<ReturnType<typeof app.listen>>((resolve) => {
    const s = app.listen(0, "127.0.0.1", () => resolve(s));
  });
  close = () => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  const release = (id: string) => {
    released.add(id);
    waiters.get(id)?.();
  };
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    queue,
    arrived,
    entered,
    release,
    events,
  };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/**
 * Sends a request and waits until the server has it, so the order of arrival is the order of
 * sending. The answer comes later (wrapped: an awaited promise would wait for it).
 */
async function send(s: Site, path: string, init?: RequestInit): Promise<{ answer: Promise<Response> }> {
  const count = s.arrived.length;
  const answer = fetch(`${s.base}${path}`, init);
  answer.catch(() => undefined);
  await until(() => s.arrived.length > count);
  return { answer };
}

describe("the render queue", () => {
  it("renders in order of arrival, never more pages at once than its slots", async () => {
    const s = await site(2);
    const responses = [];
    for (const id of ["a", "b", "c", "d", "e", "f"]) responses.push(await send(s, `/held?id=${id}`));
    expect(s.entered).toEqual(["a", "b"]);
    expect(s.queue.waiting()).toBe(4);
    // Finished out of order, each frees one slot for the next in line.
    s.release("b");
    await until(() => s.entered.length === 3);
    expect(s.entered).toEqual(["a", "b", "c"]);
    for (const id of ["e", "f", "d", "c", "a"]) s.release(id);
    const bodies = await Promise.all(responses.map(async (r) => (await r.answer).text()));
    expect(bodies).toEqual(["a", "b", "c", "d", "e", "f"].map((id) => `<p>${id}</p>`));
    expect(s.entered).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect([s.queue.busy(), s.queue.waiting()]).toEqual([0, 0]);
  });

  it("holds a whole page's slot until its encoded body goes out with its head", async () => {
    const s = await site(1);
    const [first, second] = [
      await send(s, "/page?id=1", { headers: { "accept-encoding": "br" } }),
      await send(s, "/page?id=2"),
    ];
    expect((await first.answer).headers.get("content-encoding")).toBe("br");
    await (await second.answer).text();
    expect(s.events).toEqual(["render 1", "head 1", "render 2", "head 2"]);
  });

  it("frees a stream's slot when its head goes out, while the stream stays open", async () => {
    const s = await site(1);
    const stream = await (await send(s, "/stream")).answer;
    expect(stream.headers.get("content-type")).toBe("text/event-stream");
    const page = await (await (await send(s, "/page?id=after-stream")).answer).text();
    expect(page).toContain("خبر عاجل");
    await stream.body?.cancel();
  });

  it("skips a client that left while it waited, and frees a slot whose client left during its render", async () => {
    const s = await site(1);
    const leaving = new AbortController();
    const rendering = new AbortController();
    await send(s, "/held?id=left-during-render", { signal: rendering.signal });
    await send(s, "/held?id=left-while-waiting", { signal: leaving.signal });
    const next = await send(s, "/held?id=next");
    leaving.abort();
    rendering.abort();
    await until(() => s.entered.includes("next"));
    s.release("next");
    expect(await (await next.answer).text()).toBe("<p>next</p>");
    expect(s.entered).toEqual(["left-during-render", "next"]);
    expect([s.queue.busy(), s.queue.waiting()]).toEqual([0, 0]);
  });

  it("lets writes pass while every slot is taken", async () => {
    const s = await site(1);
    const held = await send(s, "/held?id=slow");
    const write = await fetch(`${s.base}/write`, { method: "POST" });
    expect(await write.text()).toBe("ok");
    expect(s.queue.waiting()).toBe(0);
    s.release("slow");
    await (await held.answer).text();
  });

  it("refuses to be built without a slot", () => {
    expect(() => renderQueue(0)).toThrow(RangeError);
  });
});
