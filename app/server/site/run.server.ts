import cluster from "node:cluster";
import type { IncomingMessage, ServerResponse } from "node:http";
import proxyaddr from "proxy-addr";
import { pageCacheHits } from "~/server/http/page-cache-middleware.server";
import { normaliseRequestTarget } from "~/server/http/request-target.server";
import { securityHeaderSource } from "~/server/http/security-headers.server";
import { asksForSiteHost, siteHostsOf } from "~/server/http/site-address.server";
import { endAllStreams } from "~/server/breaking/stream.server";
import { config, type Config } from "~/server/platform/config.server";
import { logger } from "~/server/platform/logger.server";
import { siteBackground } from "./background.server";
import { superviseWorkers } from "./cluster.server";
import { siteHttpApp, type Served } from "./http-app.server";
import { listenOrExit, prepareOrExit, shutDownOnSignals } from "./lifecycle.server";
import { prepareData } from "./prepare-data.server";
import { viewBeacons } from "./visit-beacons.server";
import { createSite } from "./site.server";

/**
 * `npm start` and the dev server: the primary prepares the data, then supervises WORKERS workers (each
 * runs this again and serves) or serves itself. `inlineScripts` are the pages' constant inline scripts,
 * which the Content-Security-Policy allows by their hash.
 */
export async function runServer(served: Served, inlineScripts: string[]): Promise<void> {
  const development = "devServer" in served;
  const cfg = await prepareOrExit(async () => {
    const cfg = config();
    // A cluster's workers find the data (and the secret, read by config()) prepared by their primary.
    if (cluster.isPrimary) await prepareData(cfg);
    return cfg;
  });
  if (cluster.isPrimary && cfg.workers > 1 && !development) superviseWorkers(cfg.workers);
  else await serve(cfg, served, inlineScripts);
}

/** One server process: the whole site on cfg.port (in a cluster, a worker sharing the port with the others). */
async function serve(cfg: Config, served: Served, inlineScripts: string[]): Promise<void> {
  const site = createSite(cfg);
  const background = siteBackground(site);
  const security = { baseUrl: cfg.baseUrl, inlineScripts, development: "devServer" in served };
  const app = siteHttpApp(site, served, security, background.readiness);
  await background.start();
  // A view, and a page the cache holds asked for at the site's own address, are answered before Express; everything else goes through it.
  const nonceless = securityHeaderSource(security).nonceless;
  const trust = app.get("trust proxy fn") as (address: string, hop: number) => boolean;
  const viewBeacon = viewBeacons(site, nonceless, (req) => proxyaddr(req, trust));
  const cacheHit = "build" in served ? pageCacheHits(site.pageCache, nonceless) : () => false;
  const siteHosts = siteHostsOf(cfg.siteOrigins);
  const siteHost = new URL(cfg.baseUrl).host;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    normaliseRequestTarget(req, siteHost);
    return viewBeacon(req, res) || (asksForSiteHost(req, siteHosts) && cacheHit(req, res)) || app(req, res);
  };
  const server = listenOrExit(handle, cfg.port, cfg.host, () => {
    logger.info(`Akhbar is serving on ${cfg.baseUrl} (listening on ${cfg.host}:${cfg.port})`);
  });
  const closeDatabase = async () => {
    await site.batchWriter.close();
    await site.db.destroy();
  };
  shutDownOnSignals(server, { endStreams: endAllStreams, stopFollowing: background.stop, closeDatabase });
}
