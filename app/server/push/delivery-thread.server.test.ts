import { readdirSync, readFileSync } from "node:fs";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startPushService, type PushService, type Subscription } from "../../../harness/push-service";
import { DeliveryThreads, type DeliveryJob } from "./delivery-thread.server";

/*
 * The delivery thread against harness/push-service.ts, which checks each request's VAPID JWT and
 * decrypts its payload: what it sends, and the answers it reports back.
 */

let push: PushService;
let thread: DeliveryThreads;
const vapid = webpush.generateVAPIDKeys();

beforeAll(async () => {
  push = await startPushService();
  thread = new DeliveryThreads(1, { sockets: 4, timeoutMs: 5_000, nice: 10, loopback: true });
});
afterAll(async () => {
  await thread.close();
  await push.stop();
});

function jobFor(subscription: Subscription, payload: unknown): DeliveryJob {
  const audience = new URL(subscription.endpoint).origin;
  const { Authorization } = webpush.getVapidHeaders(
    audience,
    "mailto:desk@example.org",
    vapid.publicKey,
    vapid.privateKey,
    "aes128gcm",
  );
  return {
    endpoint: subscription.endpoint,
    ...subscription.keys,
    payload: JSON.stringify(payload),
    ttlSeconds: 600,
    urgency: "high",
    topic: "akhbar-breaking",
    authorization: Authorization,
    startBy: Date.now() + 60_000,
  };
}

describe("the delivery thread", () => {
  it("sends each message encrypted for its subscription, with its headers, and reports the answers", async () => {
    const readers = [push.subscribe(), push.subscribe(), push.subscribe()];
    push.answer(readers[1]!.endpoint, { status: 429, retryAfter: "30", times: 1 });
    push.answer(readers[2]!.endpoint, { status: 410, times: 1 });
    const answers = await Promise.all(readers.map((reader, i) => thread.deliver(jobFor(reader, { tag: "news-1", i }))));
    expect(answers).toEqual([
      { status: 201, retryAfter: null },
      { status: 429, retryAfter: "30" },
      { status: 410, retryAfter: null },
    ]);
    expect(push.messages(readers[0]!.endpoint)).toEqual([
      expect.objectContaining({
        payload: { tag: "news-1", i: 0 },
        ttl: "600",
        urgency: "high",
        topic: "akhbar-breaking",
      }),
    ]);
    expect(push.rejected()).toEqual([]);
  });

  it("runs at its niceness, yielding the CPU to the threads that serve pages", async () => {
    expect(await thread.deliver(jobFor(push.subscribe(), {}))).toMatchObject({ status: 201 });
    // Field 19 of a task's stat, counted after the command name's closing parenthesis as field 2.
    const niceness = readdirSync("/proc/self/task").map((task) =>
      Number(readFileSync(`/proc/self/task/${task}/stat`, "utf8").split(") ")[1]!.split(" ")[16]),
    );
    expect(niceness.filter((nice) => nice === 10)).toHaveLength(1);
  });

  it("reports a service that does not answer as an error, and keys it cannot encrypt to as such, nothing sent", async () => {
    const reader = push.subscribe();
    // Port 1 (tcpmux) has no listener on a machine of ours.
    const nobody = "http://127.0.0.1:1/push/x";
    const offCurve = Buffer.alloc(65, 4).toString("base64url");
    const [unreachable, shortKey, notAPoint] = await Promise.all([
      thread.deliver({ ...jobFor(reader, {}), endpoint: nobody }),
      thread.deliver({ ...jobFor(reader, {}), p256dh: "short" }),
      thread.deliver({ ...jobFor(reader, {}), p256dh: offCurve }),
    ]);
    expect(unreachable).toEqual({ error: expect.stringMatching(/ECONNREFUSED/), sent: false });
    expect(shortKey).toEqual({ unencryptable: expect.stringMatching(/65 bytes/) });
    expect(notAPoint).toEqual({ unencryptable: expect.any(String) });
    expect(push.requests(reader.endpoint)).toBe(0);
  });

  it("sends only to push services on the internet unless told the tests' service is on this machine: refused, nothing reaches it", async () => {
    const reader = push.subscribe();
    const { port, pathname } = new URL(reader.endpoint);
    const strict = new DeliveryThreads(1, { sockets: 2, timeoutMs: 5_000, nice: 10, loopback: false });
    try {
      const endpoints = [
        reader.endpoint,
        `https://127.0.0.1:${port}${pathname}`,
        // A name is resolved by the thread, which refuses where it points.
        `https://localhost:${port}${pathname}`,
        `https://[::1]:${port}${pathname}`,
        `https://[::ffff:127.0.0.1]:${port}${pathname}`,
        "https://10.1.2.3/push/x",
        "https://169.254.169.254/latest/meta-data",
        "https://[fd00::1]/push/x",
        "http://push.example/push/x",
      ];
      const answers = await Promise.all(
        endpoints.map((endpoint) => strict.deliver({ ...jobFor(reader, {}), endpoint })),
      );
      expect(answers.map((answer, i) => [endpoints[i], answer])).toEqual(
        endpoints.map((endpoint) => [endpoint, { refused: expect.any(String) }]),
      );
      expect(push.requests(reader.endpoint)).toBe(0);
      // The same service by name, with the tests' allowance: sent.
      expect(await thread.deliver({ ...jobFor(reader, {}), endpoint: `http://localhost:${port}${pathname}` })).toEqual({
        status: 201,
        retryAfter: null,
      });
      expect(push.requests(reader.endpoint)).toBe(1);
    } finally {
      await strict.close();
    }
  });

  it("gives up on a service that takes the message but does not answer in time, or drops the connection: sent, it may have it", async () => {
    const impatient = new DeliveryThreads(1, { sockets: 2, timeoutMs: 300, nice: 10, loopback: true });
    const [late, dropped] = [push.subscribe(), push.subscribe()];
    push.answer(late.endpoint, { lateMs: 5_000, times: 1 });
    push.answer(dropped.endpoint, { drop: true, times: 1 });
    try {
      expect(await Promise.all([impatient.deliver(jobFor(late, {})), impatient.deliver(jobFor(dropped, {}))])).toEqual([
        { error: "the push service did not answer in time", sent: true },
        { error: expect.stringMatching(/socket hang up|ECONNRESET/), sent: true },
      ]);
      expect(
        [push.messages(late.endpoint), push.messages(dropped.endpoint)].map((messages) => messages.length),
      ).toEqual([1, 1]);
    } finally {
      await impatient.close();
    }
  });

  it("leaves a job it reaches after its start-by moment: nothing sent", async () => {
    const reader = push.subscribe();
    expect(await thread.deliver({ ...jobFor(reader, {}), startBy: Date.now() - 1 })).toEqual({ notStarted: true });
    expect(push.requests(reader.endpoint)).toBe(0);
  });

  it("refuses the jobs it holds when closed, and starts again on the next", async () => {
    const reader = push.subscribe();
    push.hold();
    const waiting = thread.deliver(jobFor(reader, { n: 1 })).then(
      () => "answered",
      (error: Error) => error.message,
    );
    await vi.waitFor(() => expect(push.held()).toHaveLength(1), { timeout: 5_000, interval: 10 });
    await thread.close();
    expect(await waiting).toBe("the push delivery thread was closed");
    push.release();
    expect(await thread.deliver(jobFor(reader, { n: 2 }))).toEqual({ status: 201, retryAfter: null });
    expect(push.messages(reader.endpoint).map((message) => message.payload)).toEqual([{ n: 1 }, { n: 2 }]);
  });
});
