import cluster from "node:cluster";
import { execFileSync } from "node:child_process";
import type { IncomingMessage, ServerResponse } from "node:http";
import { setPriority } from "node:os";
import { writeError } from "~/server/http/error-response.server";
import { pageCacheHits } from "~/server/http/page-cache-middleware.server";
import { normaliseRequestTarget } from "~/server/http/request-target.server";
import { securityHeaderSource } from "~/server/http/security-headers.server";
import { asksForSiteHost, siteHostsOf } from "~/server/http/site-address.server";
import { AppError } from "~/server/platform/app-error.server";
import { config, type Config } from "~/server/platform/config.server";
import { logger } from "~/server/platform/logger.server";
import { senderBackground, siteBackground } from "./background.server";
import { helperRole, reportReady, runsCluster, superviseWorkers } from "./cluster.server";
import { siteHttpApp, type Served } from "./http-app.server";
import { listenOrExit, onStopSignal, prepareOrExit, requestsInFlight, shutDownOnSignals } from "./lifecycle.server";
import { prepareData } from "./prepare-data.server";
import { viewBeacons } from "./visit-beacons.server";
import { createSite, type Site } from "./site.server";

/**
 * `npm start` and the dev server: the primary prepares the data, then supervises WORKERS workers (each
 * runs this again and serves), the sender process and, with VIEWS_PORT, the views process; or serves
 * itself and sends alerts too. `inlineScripts`
 * are the pages' constant inline scripts, which the Content-Security-Policy allows by their hash.
 */
export async function runServer(served: Served, inlineScripts: string[]): Promise<void> {
  const development = "devServer" in served;
  const cfg = await prepareOrExit(async () => {
    const cfg = config();
    // A cluster's workers find the data (and the secret, read by config()) prepared by their primary.
    if (cluster.isPrimary) await prepareData(cfg);
    return cfg;
  });
  const views = cfg.viewsPort !== null && !development;
  if (cluster.isPrimary && runsCluster(cfg.workers, views) && !development)
    superviseWorkers(cfg.workers, views, cfg.shutdownGraceMs);
  else if (helperRole() === "views" && cfg.viewsPort !== null) serveViews(cfg, cfg.viewsPort, inlineScripts);
  else if (helperRole() === "sender") await sendAlerts(cfg);
  else await serve(cfg, served, inlineScripts);
}

/** One server process: the whole site on cfg.port (in a cluster, a worker sharing the port with the others, which leaves alerts to the sender process). */
async function serve(cfg: Config, served: Served, inlineScripts: string[]): Promise<void> {
  const site = createSite(cfg);
  const background = siteBackground(site, { sendsAlerts: cluster.isPrimary });
  const security = { baseUrl: cfg.baseUrl, inlineScripts, development: "devServer" in served };
  const app = siteHttpApp(site, served, security, background.readiness);
  await background.start();
  // A view, and a page the cache holds asked for at the site's own address, are answered before Express; everything else goes through it.
  const nonceless = securityHeaderSource(security).nonceless;
  const viewBeacon = viewBeacons(site, nonceless);
  const cacheHit = "build" in served ? pageCacheHits(site.pageCache, nonceless) : () => false;
  const siteHosts = siteHostsOf(cfg.siteOrigins);
  const siteHost = new URL(cfg.baseUrl).host;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    normaliseRequestTarget(req, siteHost);
    return viewBeacon(req, res) || (asksForSiteHost(req, siteHosts) && cacheHit(req, res)) || app(req, res);
  };
  const requests = requestsInFlight(handle);
  const server = listenOrExit(requests.listener, cfg.port, cfg.host, () => {
    logger.info(`Akhbar is serving on ${cfg.baseUrl} (listening on ${cfg.host}:${cfg.port})`);
  });
  shutDownOnSignals(server, requests, cfg.shutdownGraceMs, {
    endStreams: site.streams.endAll,
    stopFollowing: background.stop,
    closeDatabase: closeDatabaseOf(site),
  });
}

/**
 * The views process (decision 042): readers' views on VIEWS_PORT and nothing else, so the workers that
 * serve pages never spend their event loop on them. Anything else there is a 404.
 */
function serveViews(cfg: Config, port: number, inlineScripts: string[]): void {
  yieldToPages("the views process");
  const site = createSite(cfg);
  site.views.start();
  const nonceless = securityHeaderSource({ baseUrl: cfg.baseUrl, inlineScripts, development: false }).nonceless;
  const viewBeacon = viewBeacons(site, nonceless);
  const siteHost = new URL(cfg.baseUrl).host;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    normaliseRequestTarget(req, siteHost);
    if (!viewBeacon(req, res)) writeError(res, new AppError("not-found"), nonceless);
  };
  const requests = requestsInFlight(handle);
  const server = listenOrExit(requests.listener, port, cfg.host, () =>
    logger.info(`readers' views are counted on ${cfg.host}:${port}`),
  );
  shutDownOnSignals(server, requests, cfg.shutdownGraceMs, {
    endStreams: () => {},
    stopFollowing: site.views.stop,
    closeDatabase: closeDatabaseOf(site),
  });
}

/**
 * The sender process (decision 043): Web Push alerts, on no port, so the workers that serve pages
 * never spend their event loop on a send. It stops after the delivery in flight is counted.
 */
async function sendAlerts(cfg: Config): Promise<void> {
  yieldToPages("the sender process");
  const site = createSite(cfg);
  const background = senderBackground(site);
  await background.start();
  logger.info("push alerts are sent from this process");
  reportReady();
  onStopSignal(async () => {
    await background.stop();
    await closeDatabaseOf(site)();
    logger.info("stopped");
    process.exit(0);
  });
}

/**
 * Puts this process in Linux's SCHED_IDLE class, all its threads and those it starts later: a worker's
 * thread that wakes on a core this process is using takes it at once. Where util-linux's chrt is
 * missing, the lowest niceness instead.
 */
function yieldToPages(name: string): void {
  try {
    execFileSync("chrt", ["--idle", "--all-tasks", "--pid", "0", String(process.pid)], { stdio: "ignore" });
  } catch {
    setPriority(LOWEST_NICENESS);
    logger.warn(`chrt (util-linux) did not run: ${name} runs at niceness ${LOWEST_NICENESS}, not SCHED_IDLE`);
  }
}
const LOWEST_NICENESS = 19;

/** The batch writer's connection, then the site's. */
function closeDatabaseOf(site: Site): () => Promise<void> {
  return async () => {
    await site.batchWriter.close();
    await site.db.destroy();
  };
}
