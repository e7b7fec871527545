import path from "node:path";
import compression from "compression";
import express from "express";
import type { ServerBuild } from "react-router";
import type { ViteDevServer } from "vite";
import { errorsNeverStored, isFilePath, staticFileCaching } from "~/server/http/cache-policy.server";
import { proxyTrust } from "~/server/http/client-address.server";
import { CACHE } from "~/server/platform/cache-control.server";
import { answerEscapedErrors, withAppErrorAnswers } from "~/server/http/error-response.server";
import { healthRoutes, type Readiness } from "~/server/http/health-routes.server";
import {
  refuseNulInPath,
  refuseUnknownMethods,
  refuseUnusableHost,
  refuseUnusableTarget,
} from "~/server/http/methods.server";
import { refuseCrossSiteWrites } from "~/server/http/origin.server";
import { ONE_CLICK_UNSUBSCRIBE_PATH } from "~/server/newsletter/links.server";
import { pageCacheMiddleware, pageCachePolicy } from "~/server/http/page-cache-middleware.server";
import { reactRouterHandler } from "~/server/http/react-router-handler.server";
import { renderQueue } from "~/server/http/render-queue.server";
import { settleRequestBody } from "~/server/http/request-body.server";
import { cspNonceOf, securityHeaders, type SecurityHeaderOptions } from "~/server/http/security-headers.server";
import { redirectToSiteAddress } from "~/server/http/site-address.server";
import { publicMediaRedirect, storedMediaHandler } from "~/server/http/stored-media.server";
import { wholeResponses } from "~/server/http/whole-response.server";
import { logger } from "~/server/platform/logger.server";
import { requestContext } from "./request-context.server";
import type { Site } from "./site.server";

/** The bundle as served: built (`npm start`), or loaded afresh by Vite's dev server on every request. */
export type Served = { build: ServerBuild } | { devServer: ViteDevServer };

const DEV_BUILD = "virtual:react-router/server-build";

/** Express in front of React Router: the middleware order of ARCHITECTURE.md's "A request's path". */
export function siteHttpApp(
  site: Site,
  served: Served,
  security: SecurityHeaderOptions,
  readiness: () => Promise<Readiness>,
): express.Express {
  const { config } = site;
  const app = express();
  app.disable("x-powered-by");
  app.use(errorsNeverStored);
  app.use(securityHeaders(security));
  app.set("trust proxy", proxyTrust(config.trustProxy));
  app.use(settleRequestBody());
  app.use(refuseUnknownMethods);
  app.use(refuseUnusableTarget);
  app.use(refuseNulInPath);
  app.use(refuseUnusableHost);
  // Probes (a load balancer's, systemd's) ask at whatever address they know: never redirected.
  app.use(healthRoutes(readiness));
  app.use(redirectToSiteAddress(config.siteOrigins));
  // Pages, JSON and feeds are sent whole, encoded once; files, media and the event stream as they come.
  app.use(wholeResponses(site.compression));

  app.use(refuseCrossSiteWrites(config.siteOrigins, [ONE_CLICK_UNSUBSCRIBE_PATH]));
  // Rendered pages wait their turn, first come first served (docs/decisions/026).
  const renderTurns = renderQueue(config.renderSlots);
  const getLoadContext = (req: express.Request, res: express.Response) =>
    requestContext({
      site,
      clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown",
      cspNonce: cspNonceOf(res),
      afterResponse: (work) =>
        void res.once(
          "close",
          () => void work().catch((error: unknown) => logger.error({ err: error }, "work after a response failed")),
        ),
    });

  // Media files never change under a name (each stored file gets a new random name), so they are cached for a year.
  if (!config.mediaS3)
    app.use(
      "/media",
      express.static(config.mediaDir, { index: false, fallthrough: false, ...staticFileCaching(CACHE.media) }),
    );
  else if (config.mediaPublicUrl) app.use("/media", publicMediaRedirect(config.mediaPublicUrl));
  else app.use("/media", storedMediaHandler(site.media));

  if ("devServer" in served) {
    const { devServer } = served;
    app.use(devServer.middlewares);
    app.use(pageCachePolicy);
    const build = async () => withAppErrorAnswers((await devServer.ssrLoadModule(DEV_BUILD)) as ServerBuild);
    app.all(
      "/{*splat}",
      renderTurns,
      reactRouterHandler({ build, mode: "development", getLoadContext, siteOrigin: config.siteOrigins[0] ?? "" }),
    );
  } else {
    const buildDir = path.resolve("build");
    // Built scripts and styles, encoded as they stream from their files.
    app.use(
      "/assets",
      compression(),
      express.static(path.join(buildDir, "client/assets"), staticFileCaching(CACHE.asset)),
    );
    // Before the static files: a cached page is sent without looking for a file of its name first.
    app.use(pageCacheMiddleware(site.pageCache));
    // The public files all have an extension: a page's address is not looked for on disk first.
    const publicFiles = express.static(path.join(buildDir, "client"), {
      index: false,
      ...staticFileCaching(CACHE.staticFile),
    });
    const serviceWorkerFile = express.static(path.join(buildDir, "client"), {
      index: false,
      ...staticFileCaching(CACHE.serviceWorker),
    });
    app.use((req, res, next) =>
      !isFilePath(req.path)
        ? next()
        : req.path === "/sw.js"
          ? serviceWorkerFile(req, res, next)
          : publicFiles(req, res, next),
    );
    app.use(pageCachePolicy);
    app.all(
      "/{*splat}",
      renderTurns,
      reactRouterHandler({
        build: withAppErrorAnswers(served.build),
        mode: "production",
        getLoadContext,
        siteOrigin: config.siteOrigins[0] ?? "",
      }),
    );
  }
  app.use(answerEscapedErrors);
  return app;
}
