import { messages } from "~/lib/messages";

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
    return { siteOrigin, pageOrigin: origin, otherAddress: headers.host !== undefined && hostOf(origin) === hostOf(`http://${headers.host}`) };
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
  const site = escapeHtml(refusal.siteOrigin);
  const { title, request } = refusalWords(refusal);
  return `<!doctype html>
<html lang="ar" dir="rtl">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title></head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(request)}</p>
<p>${escapeHtml(messages.crossSiteSiteAddress)} <bdi dir="ltr">${site}</bdi></p>
<p>${escapeHtml(messages.crossSitePageAddress)} <bdi dir="ltr">${escapeHtml(pageAddress(refusal))}</bdi></p>
<p>${escapeHtml(messages.crossSiteAdvice)}</p>
<p><a href="${site}/">${escapeHtml(messages.backHome)}</a></p>
</main>
</body>
</html>
`;
}
