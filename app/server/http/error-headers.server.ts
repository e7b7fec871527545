import type { HeadersArgs } from "react-router";

/**
 * A `headers` export for routes with an error boundary: the headers of a Response thrown by a loader
 * or action (a busy database's Retry-After) reach the error page. Without an error, nothing is added.
 */
export function keepErrorHeaders({ errorHeaders }: HeadersArgs): Headers {
  return new Headers(errorHeaders);
}
