import type { ImageDetails } from "./image-details";

/** The point a crop keeps in frame: 0–1 from the left and from the top. */
export type FocalPoint = { x: number; y: number };

/** Where a library image is used: a story's cover, its gallery, its text, or only a kept earlier version of it. */
export type MediaUseKind = "cover" | "gallery" | "body" | "poster" | "live-update" | "revision";
export type MediaUse = { id: string; title: string; as: MediaUseKind };

/** Used by a story as it is now (not only by its kept earlier versions): such an image cannot be deleted. */
export function inCurrentUse(uses: readonly MediaUse[]): boolean {
  return uses.some((use) => use.as !== "revision");
}

/** One image of the library as the newsroom sees it. */
export type LibraryImage = ImageDetails & {
  url: string;
  uploader: string | null;
  createdAt: string;
  width: number | null;
  height: number | null;
  focal: FocalPoint | null;
};
export type LibraryEntry = LibraryImage & { uses: MediaUse[] };

/** The library's search, read from its URL: words in the caption, credit or alt text, the uploader's name, a day range. */
export type LibraryFilter = { q: string; uploader: string; from: string | null; to: string | null };
export const LIBRARY_PAGE_SIZE = 24;
const QUERY_MAX = 100;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const words = (value: string | null) =>
  (value ?? "")
    .replace(/[\p{Cc}\s]+/gu, " ")
    .trim()
    .slice(0, QUERY_MAX);
/** A calendar day that exists (2026-02-30 does not: Date would roll it over), from year 1000 on. */
function day(value: string | null): string | null {
  if (!value || !DAY.test(value) || value < "1000") return null;
  const time = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === value ? value : null;
}

/** Unknown or malformed values mean "no filter", as on the dashboard's list. */
export function libraryFilterFromUrl(url: URL): LibraryFilter {
  return {
    q: words(url.searchParams.get("q")),
    uploader: words(url.searchParams.get("uploader")),
    from: day(url.searchParams.get("from")),
    to: day(url.searchParams.get("to")),
  };
}

export function libraryPageFromUrl(url: URL): number {
  const page = Number(url.searchParams.get("page"));
  return Number.isInteger(page) && page > 1 && page < 10_000 ? page : 1;
}

/** The library's address for `filter` and `page`, with only the parameters in use. */
export function libraryPath(filter: LibraryFilter, page = 1, base = "/dashboard/media"): string {
  const params = new URLSearchParams();
  if (filter.q) params.set("q", filter.q);
  if (filter.uploader) params.set("uploader", filter.uploader);
  if (filter.from) params.set("from", filter.from);
  if (filter.to) params.set("to", filter.to);
  if (page > 1) params.set("page", String(page));
  const query = params.toString();
  return query ? `${base}?${query}` : base;
}

/** A focal point read from two form values in 0–1 (at most 4 decimals kept); null when either is not one. */
export function focalPointOf(x: unknown, y: unknown): FocalPoint | null {
  const read = (value: unknown) =>
    typeof value === "string" && /^(0(\.\d{1,6})?|1(\.0{1,6})?)$/.test(value.trim())
      ? Math.round(Number(value) * 10_000) / 10_000
      : null;
  const fx = read(x);
  const fy = read(y);
  return fx === null || fy === null ? null : { x: fx, y: fy };
}

/**
 * The class that crops an image by its box (object-cover) around its focal point, in steps of a
 * tenth (app.css makes the 121 classes: the site's CSP allows no style attributes); "" for the centre.
 */
export function focalClassOf(focal: FocalPoint | null | undefined): string {
  if (!focal) return "";
  const step = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10) * 10;
  const [x, y] = [step(focal.x), step(focal.y)];
  return x === 50 && y === 50 ? "" : `object-[${x}%_${y}%]`;
}
