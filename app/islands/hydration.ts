/**
 * Reader pages are HTML with islands (app/islands/island.tsx); the pages that are applications
 * (sign-in, dashboard, editing) hydrate the whole document with React Router by exporting
 * `handle = HYDRATE_DOCUMENT`.
 */
export const HYDRATE_DOCUMENT = { hydrate: "document" } as const;

export function hydratesDocument(handle: unknown): boolean {
  return typeof handle === "object" && handle !== null && "hydrate" in handle && handle.hydrate === "document";
}
