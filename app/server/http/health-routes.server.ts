import express from "express";
import { NO_STORE } from "~/server/platform/cache-control.server";

export type Readiness = { ready: true } | { ready: false; reason: string };

/**
 * GET /healthz: the process answers. GET /readyz: it can serve (site/readiness.server.ts), or 503
 * with the reason. For load balancers: JSON, never stored, ahead of the page cache and React Router.
 */
export function healthRoutes(readiness: () => Promise<Readiness>): express.Router {
  const router = express.Router();
  router.get("/healthz", (_req, res) => {
    res.set(NO_STORE).json({ status: "ok" });
  });
  router.get("/readyz", async (_req, res) => {
    const state = await readiness();
    if (state.ready) res.set(NO_STORE).json({ status: "ready" });
    else res.status(503).set(NO_STORE).json({ status: "not-ready", reason: state.reason });
  });
  return router;
}
