import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { readlinkSync } from "node:fs";
import http, { type ClientRequest } from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { setPriority } from "node:os";
import webpush from "web-push";
import { serveJobs, threadData } from "~/server/platform/thread-jobs.server";
import type { DeliveryAnswer, DeliveryJob, DeliveryThreadSettings } from "./delivery-thread.server";
import { isSendableAddress, isSendableEndpoint } from "./push-addresses.server";

/*
 * A push delivery thread: web-push encrypts each message (RFC 8291) and the request goes out on a
 * keep-alive connection, only to addresses push-addresses.server.ts allows.
 */

const { sockets, timeoutMs, nice, loopback } = threadData<DeliveryThreadSettings>();

try {
  // Linux keeps a nice value per thread: this one yields the CPU to the threads that serve pages.
  setPriority(Number(readlinkSync("/proc/thread-self").split("/").pop()), nice);
} catch {
  // Elsewhere the thread runs at the process's own priority.
}

const NOT_PUBLIC = "ENOTPUBLIC";
const notPublic = (address: string) =>
  Object.assign(new Error(`the push service's address ${address} is not on the internet`), { code: NOT_PUBLIC });
const messageOf = (error: unknown) => String((error as Error | null)?.message ?? error);

/** Every name is resolved here, so one that points at this machine or its network is refused, whatever the endpoint said. */
const lookup = ((
  hostname: string,
  options: LookupOptions,
  callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const refused = addresses.find((entry) => !isSendableAddress(entry.address, loopback));
    if (refused) return callback(notPublic(refused.address), []);
    if (options.all) return callback(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}) as LookupFunction;

const agentOptions = { keepAlive: true, maxSockets: sockets, lookup };
const agents = { "http:": new http.Agent(agentOptions), "https:": new https.Agent(agentOptions) };

/** Requests in flight by when they time out: one timer for all, so nothing outlives its request. */
const inFlight = new Map<ClientRequest, number>();
setInterval(() => {
  const now = Date.now();
  for (const [request, until] of inFlight)
    if (until <= now) request.destroy(new Error("the push service did not answer in time"));
}, 250).unref();

function deliver({
  endpoint,
  p256dh,
  auth,
  payload,
  ttlSeconds,
  urgency,
  topic,
  authorization,
  startBy,
}: DeliveryJob): DeliveryAnswer | Promise<DeliveryAnswer> {
  if (Date.now() > startBy) return { notStarted: true };
  if (!isSendableEndpoint(endpoint, loopback)) return { refused: `not a push service on the internet: ${endpoint}` };
  const url = new URL(endpoint);
  let details: ReturnType<typeof webpush.generateRequestDetails>;
  try {
    details = webpush.generateRequestDetails({ endpoint, keys: { p256dh, auth } }, payload, {
      TTL: ttlSeconds,
      urgency,
      topic,
      headers: { Authorization: authorization },
    });
  } catch (error) {
    return { unencryptable: messageOf(error) };
  }
  return new Promise((resolve) => {
    // Written whole to the connection: from then on the service may have it, answered or not.
    let written = false;
    const once = (answer: DeliveryAnswer) => {
      inFlight.delete(request);
      resolve(answer);
    };
    const protocol = url.protocol === "https:" ? "https:" : "http:";
    let request: ClientRequest;
    try {
      request = (protocol === "https:" ? https : http).request(
        url,
        { method: "POST", headers: details.headers, agent: agents[protocol] },
        (response) => {
          response.on("error", (error) => once({ error: messageOf(error), sent: true }));
          response.on("end", () =>
            once({
              status: response.statusCode ?? 0,
              retryAfter: (response.headers["retry-after"] as string | undefined) ?? null,
            }),
          );
          response.resume();
        },
      );
    } catch (error) {
      return resolve({ error: messageOf(error), sent: false });
    }
    request.on("finish", () => (written = true));
    request.on("error", (error: Error & { code?: string }) =>
      once(error.code === NOT_PUBLIC ? { refused: messageOf(error) } : { error: messageOf(error), sent: written }),
    );
    inFlight.set(request, Date.now() + timeoutMs);
    request.end(details.body);
  });
}

serveJobs(deliver);
