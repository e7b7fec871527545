import { sameOriginPath } from "~/lib/same-origin-path";

/*
 * The links a rich text may carry, apart from its schema (document.ts), so the reader's renderer in
 * the islands does not bring the validation library with it.
 */

/** A link to a page of this site: a path no browser resolves to another origin. */
export function isInternalHref(href: string): boolean {
  return sameOriginPath(href) !== null;
}

/** Links readers may follow: the web, mail, or a page of this site. */
export function isSafeHref(href: string): boolean {
  if (href.startsWith("/")) return isInternalHref(href);
  try {
    const url = new URL(href);
    return url.protocol === "https:" || url.protocol === "http:" || url.protocol === "mailto:";
  } catch {
    return false;
  }
}
