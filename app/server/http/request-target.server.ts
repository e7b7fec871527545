import type { IncomingMessage } from "node:http";

const ABSOLUTE_FORM = /^https?:\/\/([^/?#]*)([^#]*)/i;

/**
 * Puts a request's target in the one form the rest of the server reads. An absolute-form target
 * (`GET http://host/path`, as clients send to proxies) becomes its path and query, and its
 * authority becomes the Host (RFC 9112 §3.2.2). A request without Host (HTTP/1.0) is for `siteHost`.
 */
export function normaliseRequestTarget(req: IncomingMessage, siteHost: string): void {
  // Nearly every request is in origin form: a path.
  const absolute = req.url?.startsWith("/") ? null : ABSOLUTE_FORM.exec(req.url ?? "");
  if (absolute) {
    const [, authority = "", rest = ""] = absolute;
    req.url = rest.startsWith("/") ? rest : `/${rest}`;
    req.headers.host = authority.slice(authority.lastIndexOf("@") + 1);
  }
  if (!req.headers.host) req.headers.host = siteHost;
}
