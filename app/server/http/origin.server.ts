import type { NextFunction, Request, Response } from "express";
import { messages } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import { logger } from "~/server/platform/logger.server";
import { sendError, wantsJson } from "./error-response.server";
import { requestedHost, requestOrigin } from "./methods.server";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * Why a request was refused: the page it came from (its Origin), or null when only Sec-Fetch-Site
 * told; `otherAddress` when that page is this server opened at another of its addresses.
 */
export type CrossSiteRefusal = { siteOrigin: string; pageOrigin: string | null; otherAddress: boolean };

/**
 * Whether a request may change anything: safe methods always; others only when the browser says
 * it comes from this site (Origin, or else Sec-Fetch-Site). Non-browser clients send neither.
 * `host` is the host the request was sent to. Returns null when allowed, else what to tell the reader.
 */
export function crossSiteRefusal(
  method: string,
  headers: { origin?: string; "sec-fetch-site"?: string; host?: string },
  siteOrigins: readonly string[],
): CrossSiteRefusal | null {
  if (SAFE_METHODS.has(method.toUpperCase())) return null;
  const siteOrigin = siteOrigins[0] ?? "";
  const origin = headers.origin;
  if (origin !== undefined) {
    if (siteOrigins.includes(origin)) return null;
    return {
      siteOrigin,
      pageOrigin: origin,
      otherAddress: headers.host !== undefined && hostOf(origin) === hostOf(`http://${headers.host}`),
    };
  }
  const site = headers["sec-fetch-site"];
  if (site === undefined || site === "same-origin" || site === "none") return null;
  // Sent from this very host (same-origin) would have passed: same-site is another host.
  return { siteOrigin, pageOrigin: null, otherAddress: false };
}

function hostOf(origin: string): string | undefined {
  return URL.canParse(origin) ? new URL(origin).host : undefined;
}

/** The title and first sentence: a page of this site at another of its addresses, or of another site. */
function refusalWords(refusal: CrossSiteRefusal): { title: string; request: string } {
  return refusal.otherAddress
    ? { title: messages.otherAddressTitle, request: messages.otherAddressRequest }
    : { title: messages.crossSiteTitle, request: messages.crossSiteRequest };
}

/** Where the page that sent the request was opened, as far as the browser told. */
function pageAddress({ pageOrigin }: CrossSiteRefusal): string {
  return pageOrigin === null || pageOrigin === "null" ? messages.crossSiteUnknownPage : pageOrigin;
}

/** The reason in one Arabic sentence, for JSON callers. */
export function crossSiteReason(refusal: CrossSiteRefusal): string {
  return `${refusalWords(refusal).request} ${messages.crossSiteSiteAddress} ${refusal.siteOrigin}، ${messages.crossSitePageAddress} ${pageAddress(refusal)}. ${messages.crossSiteAdvice}`;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A whole page for a refused form post: a browser shows it in place of the form's answer. */
export function crossSitePage(refusal: CrossSiteRefusal): string {
  const { title, request } = refusalWords(refusal);
  return refusalPage(refusal.siteOrigin, title, [
    escapeHtml(request),
    `${escapeHtml(messages.crossSiteSiteAddress)} <bdi dir="ltr">${escapeHtml(refusal.siteOrigin)}</bdi>`,
    `${escapeHtml(messages.crossSitePageAddress)} <bdi dir="ltr">${escapeHtml(pageAddress(refusal))}</bdi>`,
    escapeHtml(messages.crossSiteAdvice),
  ]);
}

function refusalPage(siteOrigin: string, title: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="ar" dir="rtl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${paragraphs.map((paragraph) => `<p>${paragraph}</p>`).join("\n")}
<p><a href="${escapeHtml(siteOrigin)}/">${escapeHtml(messages.backHome)}</a></p>
</main>
</body>
</html>
`;
}

/**
 * Whether a write that passed crossSiteRefusal was sent to another origin than its page's: a proxy that
 * forwards another Host, or drops X-Forwarded-Proto. React Router refuses these on its pages with a bare
 * English 400 (resource routes it leaves alone); http/react-router-handler refuses them first, with
 * refuseForwardedWrite.
 */
export function forwardedElsewhere(method: string, origin: string | undefined, requestOrigin: string): boolean {
  if (SAFE_METHODS.has(method.toUpperCase()) || origin === undefined || !URL.canParse(origin)) return false;
  return new URL(origin).origin !== new URL(requestOrigin).origin;
}

/**
 * Every write from another site refused before anything reads it: JSON for API callers, an Arabic page for a form.
 * `openPaths` take writes from anywhere: their link's token is their only key (a mail provider's one-click unsubscribe).
 */
export function refuseCrossSiteWrites(siteOrigins: readonly string[], openPaths: readonly string[] = []) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (openPaths.includes(req.path)) return next();
    const refusal = crossSiteRefusal(
      req.method,
      { origin: req.get("origin"), "sec-fetch-site": req.get("sec-fetch-site"), host: requestedHost(req) },
      siteOrigins,
    );
    if (!refusal) return next();
    if (wantsJson(req)) return sendError(res, new AppError("forbidden", { message: crossSiteReason(refusal) }));
    res.status(403).type("html").send(crossSitePage(refusal));
  };
}

/** A write forwardedElsewhere, refused as every other refusal (JSON or an Arabic page) and logged for the operator. */
export function refuseForwardedWrite(req: Request, res: Response, siteOrigin: string): void {
  logger.warn(
    { origin: req.get("origin"), sentTo: requestOrigin(req), method: req.method, url: req.originalUrl },
    "a write from the site's page arrived for another host than the page's: the proxy in front must pass on the Host the browser asked for, and X-Forwarded-Proto (docs/deploy.md)",
  );
  const error = new AppError("bad-request", { message: messages.forwardedHostRequest });
  if (wantsJson(req)) return sendError(res, error);
  res
    .status(error.status)
    .type("html")
    .send(refusalPage(siteOrigin, messages.forwardedHostTitle, [escapeHtml(messages.forwardedHostRequest)]));
}
