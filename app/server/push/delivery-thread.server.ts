import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { NON_PUBLIC_SUBNETS } from "./push-addresses.server";

/** One message to send: the subscription, the alert's payload and headers, and the VAPID authorization. */
export type DeliveryJob = {
  endpoint: string;
  p256dh: string;
  auth: string;
  payload: string;
  ttlSeconds: number;
  urgency: "high" | "normal";
  topic: string;
  authorization: string;
  /** Not started after this moment (ms since the epoch): its claim may have lapsed while it waited for the thread. */
  startBy: number;
};

/**
 * The push service's answer, or why none came: the message was not answered (`error`; `sent` once
 * the request was written whole, so the service may have received it), the endpoint is not a push
 * service on the internet (`refused`), the subscription's keys cannot be encrypted to (`unencryptable`),
 * or the thread reached the job too late to start it (`notStarted`); in the last three nothing was sent.
 */
export type DeliveryAnswer =
  | { status: number; retryAfter: string | null }
  | { error: string; sent: boolean }
  | { refused: string }
  | { unencryptable: string }
  | { notStarted: true };

/**
 * `nice`: the thread's scheduling niceness on Linux (0 to 19; higher yields more to other threads).
 * `loopback`: tests only (TEST_LOOPBACK_PUSH), also send to this machine, where their push service runs.
 */
export type DeliveryThreadSettings = { sockets: number; timeoutMs: number; nice: number; loopback: boolean };

/**
 * What the thread runs: web-push encrypts each message (RFC 8291) and the request goes out on a
 * keep-alive connection; jobs arrive in groups and answers leave in groups, one message a turn each way.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const dns = require("node:dns");
const http = require("node:http");
const https = require("node:https");
const net = require("node:net");
const webpush = require(workerData.webPush);
try {
  // Linux keeps a nice value per thread: this one yields the CPU to the threads that serve pages.
  const tid = Number(require("node:fs").readlinkSync("/proc/thread-self").split("/").pop());
  require("node:os").setPriority(tid, workerData.nice);
} catch {}
const nonPublic = new net.BlockList();
for (const [network, prefix, family] of workerData.nonPublic) nonPublic.addSubnet(network, prefix, family);
const isLoopback = (address) => address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127.");
const allowed = (address) => {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (workerData.loopback && isLoopback(address)) return true;
  return !nonPublic.check(address, family === 4 ? "ipv4" : "ipv6");
};
const NOT_PUBLIC = "ENOTPUBLIC";
const notPublic = (address) => Object.assign(new Error("the push service's address " + address + " is not on the internet"), { code: NOT_PUBLIC });
// Every name is resolved here, so one that points at this machine or its network is refused, whatever the endpoint said.
function lookup(hostname, options, callback) {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error);
    const refused = addresses.find((entry) => !allowed(entry.address));
    if (refused) return callback(notPublic(refused.address));
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0].address, addresses[0].family);
  });
}
const agentOptions = { keepAlive: true, maxSockets: workerData.sockets, lookup };
const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };
let answers = [];
const answer = (id, result) => {
  if (answers.length === 0) setImmediate(() => { parentPort.postMessage(answers); answers = []; });
  answers.push({ id, ...result });
};
const messageOf = (error) => String((error && error.message) || error);
// Requests in flight by when they time out: one timer for all, so nothing outlives its request.
const inFlight = new Map();
setInterval(() => {
  const now = Date.now();
  for (const [request, until] of inFlight) if (until <= now) request.destroy(new Error("the push service did not answer in time"));
}, 250).unref();
function deliver({ id, endpoint, p256dh, auth, payload, ttlSeconds, urgency, topic, authorization, startBy }) {
  if (Date.now() > startBy) return answer(id, { notStarted: true });
  let url;
  try {
    url = new URL(endpoint);
  } catch (error) {
    return answer(id, { refused: messageOf(error) });
  }
  // An address in the URL is connected to without a lookup: checked here.
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (url.protocol !== "https:" && !(workerData.loopback && url.protocol === "http:")) return answer(id, { refused: "not https: " + url.protocol });
  if (net.isIP(host) !== 0 && !allowed(host)) return answer(id, { refused: notPublic(host).message });
  let details;
  try {
    details = webpush.generateRequestDetails({ endpoint, keys: { p256dh, auth } }, payload, { vapidDetails: null, TTL: ttlSeconds, urgency, topic, headers: { Authorization: authorization } });
  } catch (error) {
    return answer(id, { unencryptable: messageOf(error) });
  }
  let answered = false;
  // Written whole to the connection: from then on the service may have it, answered or not.
  let written = false;
  const once = (result) => {
    inFlight.delete(request);
    if (!answered) { answered = true; answer(id, result); }
  };
  let request;
  try {
    request = (url.protocol === "https:" ? https : http).request(url, { method: "POST", headers: details.headers, agent: agents[url.protocol] }, (response) => {
      response.on("error", (error) => once({ error: messageOf(error), sent: true }));
      response.on("end", () => once({ status: response.statusCode, retryAfter: response.headers["retry-after"] ?? null }));
      response.resume();
    });
  } catch (error) {
    return answer(id, { error: messageOf(error), sent: false });
  }
  request.on("finish", () => (written = true));
  request.on("error", (error) => once(error && error.code === NOT_PUBLIC ? { refused: messageOf(error) } : { error: messageOf(error), sent: written }));
  inFlight.set(request, Date.now() + workerData.timeoutMs);
  request.end(details.body);
}
parentPort.on("message", (jobs) => { for (const job of jobs) deliver(job); });
`;

type Pending = { resolve: (answer: DeliveryAnswer) => void; reject: (error: Error) => void };

/**
 * A thread of its own that encrypts and sends push messages, so neither the cryptography nor the HTTP
 * client takes turns from the event loop that renders pages (decision 037). Started on the first job;
 * if it stops, the jobs it holds are refused with its error and the next job starts another.
 */
export class DeliveryThread {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Pending>();
  private queued: (DeliveryJob & { id: number })[] = [];
  private lastId = 0;

  constructor(private readonly settings: DeliveryThreadSettings) {}

  deliver(job: DeliveryJob): Promise<DeliveryAnswer> {
    const id = ++this.lastId;
    // Jobs handed over before the microtasks run out go to the thread as one message, in the same turn.
    if (this.queued.length === 0) process.nextTick(() => this.flush());
    this.queued.push({ id, ...job });
    return new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
  }

  /** Ends the thread and its connections; jobs it still holds are refused. The next job starts another. */
  async close(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    this.refuseAll(worker, new Error("the push delivery thread was closed"));
    await worker.terminate();
  }

  private flush(): void {
    if (this.queued.length === 0) return;
    (this.worker ??= this.start()).postMessage(this.queued);
    this.queued = [];
  }

  private start(): Worker {
    const webPush = createRequire(import.meta.url).resolve("web-push");
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { ...this.settings, webPush, nonPublic: NON_PUBLIC_SUBNETS } });
    worker.unref();
    worker.on("message", (answers: (DeliveryAnswer & { id: number })[]) => {
      for (const { id, ...answer } of answers) {
        this.pending.get(id)?.resolve(answer as DeliveryAnswer);
        this.pending.delete(id);
      }
    });
    worker.on("error", (error) => this.refuseAll(worker, error));
    worker.on("exit", (code) => this.refuseAll(worker, new Error(`the push delivery thread exited with ${code}`)));
    return worker;
  }

  private refuseAll(worker: Worker, error: Error): void {
    if (this.worker !== worker) return;
    this.worker = undefined;
    for (const job of this.pending.values()) job.reject(error);
    this.pending.clear();
    this.queued = [];
  }
}
