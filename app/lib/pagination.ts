const MAX_PAGE = 10_000;

/** The page number of a URL's ?page=, 1 when absent or not a sensible number. */
export function pageFromUrl(url: URL): number {
  const raw = url.searchParams.get("page");
  if (raw === null || !/^\d{1,6}$/.test(raw)) return 1;
  const page = Number(raw);
  return page >= 1 && page <= MAX_PAGE ? page : 1;
}
