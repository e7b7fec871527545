import type { IncomingMessage, ServerResponse } from "node:http";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { clientAddress } from "~/server/http/client-address.server";
import { writeError, writeJson } from "~/server/http/error-response.server";
import { holdsNul } from "~/server/http/methods.server";
import { crossSiteReason, crossSiteRefusal } from "~/server/http/origin.server";
import { settleRequestBody } from "~/server/http/request-body.server";
import { readSmallBody } from "~/server/http/small-body.server";
import { AppError, appErrorWithin } from "~/server/platform/app-error.server";
import { logger } from "~/server/platform/logger.server";
import { parseVisitBody } from "~/server/visits/visit-body.server";
import { acceptView } from "~/server/visits/accept-view.server";
import type { Site } from "./site.server";

/** A view's few fields; the referrer is the longest. */
const VISIT_BODY_BYTES = 4 * 1024;
const BEACON_PATH = /^\/api\/(?:news\/([^/?]+)\/visit|site-visit)(?:\?|$)/;
const ACCEPTED = Buffer.from(JSON.stringify({ ok: true }));

/**
 * POST /api/news/:id/visit and /api/site-visit (decision 039): a browser's view, buffered, answered
 * before Express as cache hits are. A reader sends one with every page, and Express's middleware alone
 * cost several times the view's own work. Returns false, having sent nothing, for any other address.
 */
export function viewBeacons(
  site: Site,
  securityHeaders: [string, string][],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { siteOrigins, baseUrl, trustProxy } = site.config;
  const addressOf = clientAddress(trustProxy);
  const view = async (req: IncomingMessage, res: ServerResponse, newsId: string | null) => {
    if (req.method !== "POST") throw new AppError("method-not-allowed");
    const host = req.headers.host ?? "";
    const refusal = crossSiteRefusal(
      req.method,
      { origin: req.headers.origin, "sec-fetch-site": header(req, "sec-fetch-site"), host },
      siteOrigins,
    );
    if (refusal) throw new AppError("forbidden", { message: crossSiteReason(refusal) });
    const body = parseVisitBody(await readSmallBody(req, VISIT_BODY_BYTES), req.headers["content-type"] ?? "");
    const cookie = req.headers.cookie;
    const user = cookie
      ? await getCurrentUser(
          site.auth,
          new Request(new URL(req.url ?? "/", baseUrl), { method: "POST", headers: { cookie } }),
        )
      : null;
    const visitor = {
      user,
      address: addressOf(req),
      userAgent: req.headers["user-agent"] ?? "",
      siteHost: hostnameOf(host),
      at: site.clock.now(),
    };
    await acceptView(site.db, site.views, visitor, newsId, body);
    writeJson(res, 200, ACCEPTED, securityHeaders);
  };

  const settle = settleRequestBody();
  return (req, res) => {
    const match = BEACON_PATH.exec(req.url ?? "");
    if (!match) return false;
    const newsId = match[1] === undefined ? null : storyIdOf(match[1]);
    settle(
      req,
      res,
      () =>
        void view(req, res, newsId).catch((error: unknown) => {
          const known = appErrorWithin(error);
          if (!known) logger.error({ err: error, url: req.url }, "unexpected error");
          const refusal = known ?? new AppError("internal");
          writeError(res, refusal, securityHeaders, refusal.code === "method-not-allowed" ? { Allow: "POST" } : {});
        }),
    );
    return true;
  };
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The host's name without its port (`[::1]:3000` → `[::1]`). */
function hostnameOf(host: string): string {
  return host.replace(/:\d*$/, "");
}

/** The story id the path carries; one that is not valid percent-encoding, or holds a NUL (which PostgreSQL cannot compare), names none. */
function storyIdOf(segment: string): string {
  if (holdsNul(segment)) return "";
  try {
    return decodeURIComponent(segment);
  } catch {
    return "";
  }
}
