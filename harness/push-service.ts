import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Page } from "@playwright/test";

/*
 * A push service of our own for tests and the benchmark (RFC 8030's push endpoint, POST /push/{id}):
 * each request's VAPID JWT is checked (RFC 8292: ES256 by the `k` key, `aud` this service's origin,
 * `exp` within 24 hours) and its aes128gcm payload decrypted (RFC 8188, RFC 8291) with the keys the
 * subscription was made with here. Chosen endpoints can be told to answer 404, 410, 429 or 5xx, or
 * to take a message and not answer it: drop the connection, or answer too late.
 */

/** `vapidKey`: the application server key (VAPID `k`) the message was signed with. */
export type PushedMessage = {
  id: string;
  payload: unknown;
  ttl: string | null;
  urgency: string | null;
  topic: string | null;
  vapidKey: string | null;
  at: number;
};
export type Subscription = { endpoint: string; keys: { p256dh: string; auth: string } };
/**
 * What a forced answer says; `times` answers of it, then 201 again. Or the message is taken (kept,
 * counted) and then the connection dropped (`drop`), or its 201 sent only after `lateMs`.
 */
export type ForcedAnswer = ({ status: number; retryAfter?: string } | { drop: true } | { lateMs: number }) & {
  times: number;
};

export type PushService = {
  url: string;
  /** A new subscription at this service: the browser's side of it (keys) is kept here to decrypt. */
  subscribe: () => Subscription;
  /** Messages accepted (201) for a subscription's id, in order of arrival. */
  messages: (endpoint: string) => PushedMessage[];
  /** Every accepted message. */
  all: () => PushedMessage[];
  /** Requests refused for a bad JWT or payload: a test expects none. */
  rejected: () => string[];
  /** Requests answered for `endpoint` so far, forced answers included. */
  requests: (endpoint: string) => number;
  answer: (endpoint: string, forced: ForcedAnswer) => void;
  /** From now on, messages are accepted (kept, counted) but their 201 waits for `release`: as if the answer were lost on its way. */
  hold: () => void;
  /** The messages accepted and not answered yet. */
  held: () => PushedMessage[];
  /** Sends the held answers (to whoever still listens) and answers at once again. */
  release: () => void;
  /** The benchmark's subscription `i` (`bench{i}`): all share one key pair, so making 100,000 costs nothing. */
  benchSubscription: (i: number) => Subscription;
  stop: () => Promise<void>;
};

type Keys = { ecdh: ECDH; publicKey: Buffer; auth: Buffer };

const JWT_MAX_SECONDS = 24 * 3600;

function b64url(bytes: Buffer): string {
  return bytes.toString("base64url");
}

/** The uncompressed P-256 point `raw` as a public key node:crypto verifies with. */
function p256Key(raw: Buffer) {
  return createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) },
    format: "jwk",
  });
}

/** Checks `vapid t=…, k=…` against this service's origin; returns what is wrong, or null. */
export function vapidProblem(header: string | undefined, origin: string, nowSeconds: number): string | null {
  const match = /^vapid\s+t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? "");
  if (!match) return "no vapid authorization";
  const [, token, k] = match as unknown as [string, string, string];
  const parts = token.split(".");
  if (parts.length !== 3) return "not a JWT";
  const [head, body, signature] = parts as [string, string, string];
  const header64 = JSON.parse(Buffer.from(head, "base64url").toString()) as { alg?: string };
  if (header64.alg !== "ES256") return "not ES256";
  const publicKey = Buffer.from(k, "base64url");
  if (publicKey.length !== 65 || publicKey[0] !== 4) return "k is no P-256 point";
  const signed = verify(
    "sha256",
    Buffer.from(`${head}.${body}`),
    { key: p256Key(publicKey), dsaEncoding: "ieee-p1363" },
    Buffer.from(signature, "base64url"),
  );
  if (!signed) return "bad signature";
  const claims = JSON.parse(Buffer.from(body, "base64url").toString()) as { aud?: string; exp?: number; sub?: string };
  if (claims.aud !== origin) return `aud ${claims.aud} is not ${origin}`;
  if (typeof claims.exp !== "number" || claims.exp <= nowSeconds || claims.exp > nowSeconds + JWT_MAX_SECONDS)
    return "exp out of range";
  if (!claims.sub || !/^(mailto:|https:)/.test(claims.sub)) return "no sub";
  return null;
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) =>
  Buffer.from(hkdfSync("sha256", ikm, salt, info, length));

/** Decrypts an aes128gcm body (one record) for the subscription whose keys are `keys`. */
export function decryptPayload(body: Buffer, keys: Keys): Buffer {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  const record = body.subarray(21 + idLength);
  const secret = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), keys.publicKey, senderKey]);
  const ikm = hkdf(keys.auth, secret, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from("Content-Encoding: aes128gcm\0"), 16);
  const nonce = hkdf(salt, ikm, Buffer.from("Content-Encoding: nonce\0"), 12);
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(record.subarray(record.length - 16));
  const padded = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

/**
 * Starts the service on 127.0.0.1. `checkEvery`: decrypt and verify every n-th request only (the
 * benchmark's thousands per second); 1 (tests) checks each one.
 */
export async function startPushService({
  port = 0,
  checkEvery = 1,
  keep = true,
}: { port?: number; checkEvery?: number; keep?: boolean } = {}): Promise<PushService> {
  const subscriptions = new Map<string, Keys>();
  const received = new Map<string, PushedMessage[]>();
  const counts = new Map<string, number>();
  const forced = new Map<string, ForcedAnswer>();
  const rejected: string[] = [];
  let all: PushedMessage[] = [];
  let n = 0;
  let accepted = 0;
  let origin = "";
  let shared: Keys | undefined;
  let holding = false;
  let held: { message: PushedMessage; answer: () => void }[] = [];

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const match = /^\/push\/([A-Za-z0-9_-]+)$/.exec(request.url ?? "");
    const body = await readBody(request);
    if (request.method === "GET" && request.url === "/stats") {
      return void response
        .writeHead(200, { "content-type": "application/json" })
        .end(JSON.stringify({ accepted, rejected }));
    }
    if (request.method !== "POST" || !match) return void response.writeHead(404).end();
    const id = match[1]!;
    const endpoint = `${origin}/push/${id}`;
    counts.set(endpoint, (counts.get(endpoint) ?? 0) + 1);
    const stored = forced.get(endpoint);
    const answer = stored && stored.times > 0 ? stored : null;
    if (answer) answer.times--;
    if (answer && "status" in answer)
      return void response
        .writeHead(answer.status, answer.retryAfter ? { "retry-after": answer.retryAfter } : {})
        .end();
    const keys = subscriptions.get(id) ?? (id.startsWith("bench") ? shared : undefined);
    if (!keys) return void response.writeHead(410).end();
    let payload: unknown = null;
    if (n++ % checkEvery === 0) {
      const problem = vapidProblem(request.headers.authorization, origin, Math.floor(Date.now() / 1000));
      if (problem) {
        rejected.push(`${id}: ${problem}`);
        return void response.writeHead(401).end();
      }
      if (request.headers["content-encoding"] !== "aes128gcm") {
        rejected.push(`${id}: content-encoding ${request.headers["content-encoding"]}`);
        return void response.writeHead(400).end();
      }
      try {
        payload = JSON.parse(decryptPayload(body, keys).toString("utf8"));
      } catch (error) {
        rejected.push(`${id}: ${(error as Error).message}`);
        return void response.writeHead(400).end();
      }
    }
    const header = (name: string) => (request.headers[name] as string | undefined) ?? null;
    const vapidKey = /\bk=([A-Za-z0-9_-]+)/.exec(request.headers.authorization ?? "")?.[1] ?? null;
    const message: PushedMessage = {
      id,
      payload,
      ttl: header("ttl"),
      urgency: header("urgency"),
      topic: header("topic"),
      vapidKey,
      at: Date.now(),
    };
    if (keep) {
      const list = received.get(endpoint) ?? [];
      list.push(message);
      received.set(endpoint, list);
      all.push(message);
    }
    accepted++;
    const location = `/message/${n}`;
    const accept = () => {
      if (response.destroyed || response.socket?.destroyed !== false) return;
      response.writeHead(201, { location }).end();
    };
    if (answer && "drop" in answer) request.socket.destroy();
    else if (answer && "lateMs" in answer) setTimeout(accept, answer.lateMs).unref();
    else if (holding) held.push({ message, answer: accept });
    else accept();
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      rejected.push(String(error));
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const makeKeys = (): Keys => {
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    return { ecdh, publicKey: ecdh.getPublicKey(), auth: randomBytes(16) };
  };
  const asSubscription = (id: string, keys: Keys): Subscription => ({
    endpoint: `${origin}/push/${id}`,
    keys: { p256dh: b64url(keys.publicKey), auth: b64url(keys.auth) },
  });

  return {
    url: origin,
    subscribe: () => {
      const id = randomBytes(12).toString("base64url");
      const keys = makeKeys();
      subscriptions.set(id, keys);
      return asSubscription(id, keys);
    },
    messages: (endpoint) => received.get(endpoint) ?? [],
    all: () => all,
    rejected: () => rejected,
    requests: (endpoint) => counts.get(endpoint) ?? 0,
    answer: (endpoint, answer) => void forced.set(endpoint, { ...answer }),
    hold: () => void (holding = true),
    held: () => held.map((entry) => entry.message),
    release: () => {
      holding = false;
      for (const entry of held) entry.answer();
      held = [];
    },
    benchSubscription: (i) => asSubscription(`bench${i}`, (shared ??= makeKeys())),
    stop: () => {
      all = [];
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * What a browser's push service does next, in Chromium through DevTools: hands `payload` (a message
 * this service decrypted) to the service worker of the page's origin as a push message, and resolves
 * once the worker's push event has ended (DevTools' background-service log says how).
 */
export async function deliverToServiceWorker(page: Page, payload: unknown): Promise<void> {
  const origin = new URL(page.url()).origin;
  const cdp = await page.context().newCDPSession(page);
  const since = Date.now() / 1000;
  const ended = new Promise<string>((resolve) => {
    cdp.on("BackgroundService.backgroundServiceEventReceived", ({ backgroundServiceEvent: event }) => {
      if (event.eventName === "Push event completed" && event.timestamp >= since && event.origin.startsWith(origin)) {
        resolve(event.eventMetadata.find((entry) => entry.key === "Status")?.value ?? "no status");
      }
    });
  });
  await cdp.send("BackgroundService.startObserving", { service: "pushMessaging" });
  await cdp.send("BackgroundService.setRecording", { shouldRecord: true, service: "pushMessaging" });
  const registrationId = await new Promise<string>((resolve) => {
    cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
      const ours = registrations.find(
        (registration) => registration.scopeURL === `${origin}/` && !registration.isDeleted,
      );
      if (ours) resolve(ours.registrationId);
    });
    void cdp.send("ServiceWorker.enable");
  });
  await cdp.send("ServiceWorker.deliverPushMessage", { origin, registrationId, data: JSON.stringify(payload) });
  const status = await ended;
  if (status !== "Success") throw new Error(`the service worker's push event ended with ${status}`);
}

/**
 * Run on its own (`node --import tsx harness/push-service.ts [checkEvery]`), for the benchmark: the
 * service in a process of its own, keeping counts only; its first line on stdout is JSON with its URL
 * and the one subscription key pair every `bench{i}` endpoint shares.
 */
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const service = await startPushService({ checkEvery: Number(process.argv[2] ?? 100), keep: false });
  const { keys } = service.benchSubscription(0);
  process.stdout.write(`${JSON.stringify({ url: service.url, keys })}\n`);
  process.on("SIGTERM", () => void service.stop().then(() => process.exit(0)));
}
