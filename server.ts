import cluster from "node:cluster";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import compression from "compression";
import express from "express";
import type { RouterContextProvider, ServerBuild } from "react-router";
import { config, type Config } from "./app/server/platform/config.server";
import { superviseWorkers } from "./app/server/platform/cluster.server";
import { pageCacheHits, pageCacheMiddleware, pageCachePolicy } from "./app/server/http/page-cache-middleware.server";
import { CACHE, errorsNeverStored, isFilePath, staticFileCaching } from "./app/server/http/cache-policy.server";
import { listenOrExit, prepareOrExit, shutDownOnSignals, type ShutdownHooks } from "./app/server/platform/lifecycle.server";
import { logger } from "./app/server/platform/logger.server";
import { crossSitePage, crossSiteReason, crossSiteRefusal } from "./app/server/http/origin.server";
import { answerEscapedErrors, sendError, wantsJson, withAppErrorAnswers } from "./app/server/http/error-response.server";
import { AppError } from "./app/server/platform/app-error.server";
import type { PageCache } from "./app/server/http/page-cache.server";
import { cspNonceOf, securityHeaders, securityHeaderSource } from "./app/server/http/security-headers.server";
import { wholeResponses } from "./app/server/http/whole-response.server";
import { prepareData } from "./app/server/platform/startup.server";
import { settleRequestBody } from "./app/server/http/request-body.server";
import { refuseNulInPath, refuseUnknownMethods, refuseUnusableHost, refuseUnusableTarget, requestedHost } from "./app/server/http/methods.server";
import { normaliseRequestTarget } from "./app/server/http/request-target.server";
import { asksForSiteHost, redirectToSiteAddress, siteHostsOf } from "./app/server/http/site-address.server";
import { publicMediaRedirect, storedMediaHandler } from "./app/server/http/stored-media.server";
import { mediaStorageFor } from "./app/server/media/media-storage.server";
import { renderQueue } from "./app/server/http/render-queue.server";
import { healthRoutes } from "./app/server/http/health-routes.server";
import type { SiteOutbox } from "./app/server/platform/site-outbox.server";
import type { RequestValues } from "./app/load-context.server";

const development = process.argv.includes("--dev");
// React picks its production build from NODE_ENV when first loaded, so React Router comes after this.
process.env.NODE_ENV = development ? "development" : "production";
const cfg = await prepareOrExit(async () => {
  const cfg = config();
  // A cluster's workers find the data (and the secret, read by config()) prepared by their primary.
  if (cluster.isPrimary) await prepareData(cfg);
  return cfg;
});
if (cluster.isPrimary && cfg.workers > 1 && !development) superviseWorkers(cfg.workers);
else await serve(cfg);

/**
 * The bundle's own instances and constants (decision 001): the page cache its outbox follower empties,
 * that follower, what to stop at shutdown, its inline scripts, and the load context made with its keys.
 */
type BundleEntry = {
  pageCache: PageCache;
  inlineScripts: string[];
  shutdownHooks: ShutdownHooks;
  siteOutbox: SiteOutbox;
  requestContext: (values: RequestValues) => RouterContextProvider;
};
function entryOf(build: ServerBuild): BundleEntry {
  return build.entry.module as unknown as BundleEntry;
}

/** One server process: the whole site on cfg.port (in a cluster, a worker sharing the port with the others). */
async function serve(cfg: Config): Promise<void> {
  // Loads React Router, so only once NODE_ENV is set (above).
  const { reactRouterHandler } = await import("./app/server/http/react-router-handler.server");
  const buildDir = path.resolve("build");
  // The dev server builds its own through Vite.
  const build = development ? undefined : ((await import(path.join(buildDir, "server/index.js"))) as ServerBuild);
  const bundle = build && entryOf(build);
  /** The bundle's outbox follower, set before the server listens (the dev server's once Vite has loaded it). */
  let siteOutbox = bundle?.siteOutbox;

  const app = express();
  app.disable("x-powered-by");
  app.use(errorsNeverStored);
  const securityOptions = { baseUrl: cfg.baseUrl, inlineScripts: bundle?.inlineScripts ?? [], development };
  app.use(securityHeaders(securityOptions));
  app.set("trust proxy", cfg.trustProxy);
  app.use(settleRequestBody());
  app.use(refuseUnknownMethods);
  app.use(refuseUnusableTarget);
  app.use(refuseNulInPath);
  app.use(refuseUnusableHost);
  // Probes (a load balancer's, systemd's) ask at whatever address they know: never redirected.
  app.use(healthRoutes(async () => siteOutbox?.readiness() ?? { ready: false, reason: "starting" }));
  app.use(redirectToSiteAddress(cfg.siteOrigins));
  // Pages, JSON and feeds are sent whole, encoded once; files, media and the event stream as they come.
  app.use(wholeResponses());

  app.use((req, res, next) => {
    const headers = { origin: req.get("origin"), "sec-fetch-site": req.get("sec-fetch-site"), host: requestedHost(req) };
    const refusal = crossSiteRefusal(req.method, headers, cfg.siteOrigins);
    if (!refusal) return next();
    if (wantsJson(req)) sendError(res, new AppError("forbidden", { message: crossSiteReason(refusal) }));
    else res.status(403).type("html").send(crossSitePage(refusal));
  });
  // Rendered pages wait their turn, first come first served (docs/decisions/026).
  const renderTurns = renderQueue(cfg.renderSlots);
  const requestValues = (req: express.Request, res: express.Response): RequestValues => ({
    clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
    cspNonce: cspNonceOf(res),
    afterResponse: (work: () => Promise<void>) => void res.once("close", () => void work().catch((error: unknown) => logger.error({ err: error }, "work after a response failed"))),
  });

  // Media files never change under a name (each stored file gets a new random name), so they are cached for a year.
  if (!cfg.mediaS3) app.use("/media", express.static(cfg.mediaDir, { index: false, fallthrough: false, ...staticFileCaching(CACHE.media) }));
  else if (cfg.mediaPublicUrl) app.use("/media", publicMediaRedirect(cfg.mediaPublicUrl));
  else app.use("/media", storedMediaHandler(mediaStorageFor(cfg)));

  if (!build || !bundle) {
    const vite = await import("vite");
    const devServer = await vite.createServer({ server: { middlewareMode: true } });
    // Vite reloads a module that changed: each request takes the bundle as it is now.
    const devBuild = async () => (await devServer.ssrLoadModule("virtual:react-router/server-build")) as ServerBuild;
    siteOutbox = entryOf(await devBuild()).siteOutbox;
    app.use(devServer.middlewares);
    app.use(pageCachePolicy);
    app.all(
      "/{*splat}",
      renderTurns,
      reactRouterHandler({
        build: async () => withAppErrorAnswers(await devBuild()),
        mode: "development",
        getLoadContext: async (req, res) => entryOf(await devBuild()).requestContext(requestValues(req, res)),
      }),
    );
  } else {
    const { pageCache } = bundle;
    // Built scripts and styles, encoded as they stream from their files.
    app.use("/assets", compression(), express.static(path.join(buildDir, "client/assets"), staticFileCaching(CACHE.asset)));
    // Before the static files: a cached page is sent without looking for a file of its name first.
    app.use(pageCacheMiddleware(pageCache));
    // The public files all have an extension: a page's address is not looked for on disk first.
    const publicFiles = express.static(path.join(buildDir, "client"), { index: false, ...staticFileCaching(CACHE.staticFile) });
    app.use((req, res, next) => (isFilePath(req.path) ? publicFiles(req, res, next) : next()));
    app.use(pageCachePolicy);
    app.all("/{*splat}", renderTurns, reactRouterHandler({ build: withAppErrorAnswers(build), mode: "production", getLoadContext: (req, res) => bundle.requestContext(requestValues(req, res)) }));
  }
  app.use(answerEscapedErrors);

  await siteOutbox?.start();
  // A page the cache holds, asked for at the site's own address, is answered before Express; everything else goes through it.
  const cacheHit = bundle ? pageCacheHits(bundle.pageCache, securityHeaderSource(securityOptions).nonceless) : () => false;
  const siteHosts = siteHostsOf(cfg.siteOrigins);
  const siteHost = new URL(cfg.baseUrl).host;
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    normaliseRequestTarget(req, siteHost);
    return (asksForSiteHost(req, siteHosts) && cacheHit(req, res)) || app(req, res);
  };
  const server = listenOrExit(handle, cfg.port, cfg.host, () => {
    logger.info(`Akhbar is serving on ${cfg.baseUrl} (listening on ${cfg.host}:${cfg.port})`);
  });
  shutDownOnSignals(server, bundle?.shutdownHooks);
}
