import express from "express";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { readSmallBody } from "~/server/http/small-body.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { parseVisitBody } from "~/server/visits/visit-body.server";
import { acceptView } from "~/server/visits/accept-view.server";
import type { Site } from "./site.server";

/** A view's few fields; the referrer is the longest. */
const VISIT_BODY_BYTES = 4 * 1024;

/**
 * POST /api/news/:id/visit and /api/site-visit (decision 039): a browser's view, buffered. Answered by
 * Express after the origin check, without React Router: its request and action pipeline cost several
 * times the view's own work, and a reader sends one with every page.
 */
export function visitBeacons(site: Site): express.Router {
  const router = express.Router();
  const view = async (req: express.Request, res: express.Response, newsId: string | null) => {
    if (req.method !== "POST") throw new AppError("method-not-allowed");
    const body = parseVisitBody(await readSmallBody(req, VISIT_BODY_BYTES), req.get("content-type") ?? "");
    const cookie = req.get("cookie");
    const user = cookie ? await getCurrentUser(site.auth, new Request(new URL(req.originalUrl, site.config.baseUrl), { method: "POST", headers: { cookie } })) : null;
    const visitor = { user, address: req.ip ?? req.socket.remoteAddress ?? "unknown", userAgent: req.get("user-agent") ?? "", siteHost: req.hostname, at: site.clock.now() };
    await acceptView(site.db, site.views, visitor, newsId, body);
    res.status(200).set(NO_STORE).json({ ok: true });
  };
  router.all("/api/news/:id/visit", (req, res, next) => void view(req, res, req.params.id).catch(next));
  router.all("/api/site-visit", (req, res, next) => void view(req, res, null).catch(next));
  return router;
}
