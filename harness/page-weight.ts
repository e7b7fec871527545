import { get } from "node:http";
import { chromium, type Browser, type BrowserContext, type Request, type Response } from "playwright-core";
import { CHROMIUM_ARGS, chromiumPath } from "./chromium";

/** One response of a visit, as it came over the wire: body and headers, encoded (brotli where the server chose it). */
export type Transfer = { path: string; bytes: number; type: string; byWorker: boolean };

export type PageWeight = {
  /** The scripts the page ran (its own, not the worker's): their bodies as the server sends them in brotli, and their files. */
  js: number;
  jsFiles: string[];
  /** The stylesheet as Chromium received it. */
  css: number;
  /** Every byte of the visit as Chromium received it (gzip at most on plain HTTP), headers included: the page's responses and the worker's own fetches. */
  total: number;
  /** What the service worker fetched itself: its script, its shell and whatever it keeps for reading offline. */
  worker: number;
  /** Every asset and page fetched (paths), by the page or the worker. */
  files: string[];
  transfers: Transfer[];
};

/** How the visit's browser is set up: the worker allowed (as for a reader), and what its connection says of itself. */
export type Visit = {
  serviceWorker?: boolean;
  saveData?: boolean;
  connectionType?: "cellular3g" | "cellular4g" | "wifi" | "ethernet";
};

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

const QUIET_MS = 3_000;

/** A page's event streams stay open as long as it does: they are not part of its weight. */
const counted = (request: Request) => request.resourceType() !== "eventsource";

/** Ends once the network has said nothing for `quietMs`: no request started, answered or finished, the worker's included. */
function networkQuiet(context: BrowserContext, quietMs: number): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(resolve, quietMs);
    const again = () => {
      clearTimeout(timer);
      timer = setTimeout(resolve, quietMs);
    };
    context.on("request", again);
    context.on("response", again);
    context.on("requestfinished", again);
    context.on("requestfailed", again);
  });
}

/**
 * A response's size on the wire: DevTools' count once it finished; for one whose body nobody read (so
 * it never finishes in DevTools' view), its Content-Length and its headers.
 */
async function wireBytes(response: Response, finished: Set<Request>): Promise<number> {
  if (finished.has(response.request())) {
    const sizes = await response.request().sizes();
    return sizes.responseBodySize + sizes.responseHeadersSize;
  }
  const headers = await response.headersArray();
  return (
    Number(response.headers()["content-length"] ?? 0) +
    headers.reduce((total, { name, value }) => total + name.length + value.length + 4, 0)
  );
}

/** The bytes of a body as the server sends it with `Accept-Encoding: br` (Chromium asks plain HTTP for gzip at most). */
function brotliBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { "Accept-Encoding": "br" } }, (response) => {
      let bytes = 0;
      response.on("data", (chunk: Buffer) => (bytes += chunk.length));
      response.on("end", () => resolve(bytes));
      response.on("error", reject);
    }).on("error", reject);
  });
}

/** Starts a DevTools session on each page the context opens that says what `visit` asks of the connection. */
async function emulateConnection(context: BrowserContext, visit: Visit): Promise<void> {
  if (!visit.saveData && !visit.connectionType) return;
  context.on("page", async (page) => {
    const cdp = await context.newCDPSession(page);
    if (visit.saveData) await cdp.send("Emulation.setDataSaverOverride", { dataSaverEnabled: true });
    if (visit.connectionType)
      await cdp.send("Network.emulateNetworkConditions", {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
        connectionType: visit.connectionType,
      });
  });
}

/**
 * A first visit to `path` in a fresh Chromium profile: every response's encoded size (Playwright's
 * sizes, from DevTools' `encodedDataLength`), the service worker's own fetches included when it is
 * allowed. Ends once the islands are hydrated and the network has then been quiet for QUIET_MS, so
 * the worker's background fetches, which wait for an idle moment, are counted.
 */
export async function pageWeight(
  browser: Browser,
  baseUrl: string,
  path: string,
  visit: Visit = {},
): Promise<PageWeight> {
  const context = await browser.newContext({ serviceWorkers: visit.serviceWorker ? "allow" : "block" });
  try {
    await emulateConnection(context, visit);
    const responses: Response[] = [];
    const finished = new Set<Request>();
    context.on("response", (response) => void (counted(response.request()) && responses.push(response)));
    context.on("requestfinished", (request) => finished.add(request));
    const page = await context.newPage();
    await page.goto(`${baseUrl}${path}`);
    await page.waitForFunction(() => document.documentElement.dataset.hydrated === "islands");
    await networkQuiet(context, QUIET_MS);
    const transfers: Transfer[] = [];
    for (const response of responses) {
      // A page's request the worker answered is counted once, as the worker's own fetch (or not at all, from its cache).
      if (response.fromServiceWorker()) continue;
      const request = response.request();
      const url = new URL(request.url());
      transfers.push({
        path: url.pathname + url.search,
        bytes: await wireBytes(response, finished),
        type: request.resourceType(),
        byWorker: request.serviceWorker() !== null,
      });
    }
    const sum = (list: Transfer[]) => list.reduce((total, transfer) => total + transfer.bytes, 0);
    const scripts = transfers.filter((t) => !t.byWorker && t.type === "script");
    return {
      js: (await Promise.all(scripts.map((script) => brotliBytes(`${baseUrl}${script.path}`)))).reduce(
        (a, b) => a + b,
        0,
      ),
      jsFiles: scripts.map((t) => t.path).sort(),
      css: sum(transfers.filter((t) => !t.byWorker && t.type === "stylesheet")),
      total: sum(transfers),
      worker: sum(transfers.filter((t) => t.byWorker)),
      files: [...new Set(transfers.map((t) => t.path))].sort(),
      transfers,
    };
  } finally {
    await context.close();
  }
}
