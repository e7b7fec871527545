import type { FocalPoint } from "./media-library";
import type { ImageDetailsMap } from "./image-details";
import type { RichDocument } from "./rich-text/document";
import type { Credit } from "./bylines";
import type { Category } from "./categories";
import type { StoryFields } from "./story-fields";

/**
 * docs/product.md#article-statuses. Only `published` is public. `trashed`: deleted, kept 30 days, then purged; it is never
 * chosen in a form, only reached by deleting.
 */
export const NEWS_STATUSES = ["draft", "review", "scheduled", "published", "trashed"] as const;
export type NewsStatus = (typeof NEWS_STATUSES)[number];

/** The statuses a form or the JSON API may ask for. */
export const CHOSEN_STATUSES = ["draft", "review", "scheduled", "published"] as const satisfies readonly NewsStatus[];
export type ChosenStatus = (typeof CHOSEN_STATUSES)[number];

/** What a list or card needs of an article. */
export type NewsSummary = {
  id: string;
  title: string;
  excerpt: string;
  category: Category;
  image: string | null;
  isVideo: boolean;
  status: NewsStatus;
  visits: number;
  createdAt: string;
  /** When it was first published; null while it never was. Readers see this, not createdAt. */
  publishedAt: string | null;
  /** The byline text, or the author's name and page; null when neither is known. */
  credit: Credit | null;
  /** The readable address's last segment (articlePath); null for an article never published since migration 021 (decision 033). */
  slug: string | null;
  /** The cover's focal point in the media library, when one was set: the card's crop keeps it in frame. */
  imageFocus?: FocalPoint;
  /** Present while the story's live coverage is open (decision 040). */
  live?: true;
};

/** The time readers are shown for an article: its publication, or its writing while it is unpublished. */
export function shownTime(item: Pick<NewsSummary, "createdAt" | "publishedAt">): string {
  return item.publishedAt ?? item.createdAt;
}

/** What a row or a slide shows of an article: the islands that list articles take only this as props. */
export type NewsTeaser = Pick<
  NewsSummary,
  "id" | "title" | "category" | "image" | "imageFocus" | "isVideo" | "createdAt" | "publishedAt" | "slug"
>;

export function teaserOf({
  id,
  title,
  category,
  image,
  isVideo,
  createdAt,
  publishedAt,
  slug,
}: NewsSummary): NewsTeaser {
  return { id, title, category, image, isVideo, createdAt, publishedAt, slug };
}

/** The lists beside home and every article. */
export type SidebarLists = { latest: NewsSummary[]; mostRead: NewsSummary[] };

export type NewsArticle = NewsSummary & {
  /** The body's plain text (search, snippets, feeds, share text). */
  content: string;
  /** The body as readers see it: the editor's document, or `content` as paragraphs. */
  body: RichDocument;
  /** In the order readers see them; the first is the cover. */
  images: string[];
  /** Each image's alt text, caption and credit, by URL (decision 025). */
  imageDetails: ImageDetailsMap;
  video: string | null;
  /** The video's poster (a stored image), shown before it plays; absent when none was set. */
  videoPoster?: string;
  /** The original's single image field: an image address typed in the form, shown after the uploaded images. */
  imageUrl: string | null;
  updatedAt: string | null;
  /** When a scheduled article goes out. */
  publishAt: string | null;
  /** The byline text as typed, for the form; readers see `credit`. */
  byline: string | null;
  /** Standfirst, slug, share overrides, noindex (lib/story-fields.ts). */
  story: StoryFields;
  /** Counts the story's writes: a save names the one it was based on (decision 034). */
  version: number;
};

/** When an article was edited after it was published ("آخر تحديث"); null otherwise. */
export function lastUpdateAfterPublication(article: Pick<NewsArticle, "publishedAt" | "updatedAt">): string | null {
  const { publishedAt, updatedAt } = article;
  return publishedAt && updatedAt && Date.parse(updatedAt) > Date.parse(publishedAt) ? updatedAt : null;
}

/**
 * An article's canonical address, the one every link uses: `/news/{id}/{slug}`, or `/news/{id}` while
 * it has no slug (decision 033). The slug is written as it reads (its letters and hyphens make a valid
 * IRI; UTF-8 Arabic is a third of the bytes of its percent-encoding, and every card carries one):
 * `absoluteUrl` percent-encodes it for canonical links, feeds and sitemaps, `wirePath` for a Location header.
 */
export function articlePath(id: string, slug: string | null): string {
  const path = articleIdPath(id);
  return slug ? `${path}/${slug}` : path;
}

/**
 * The article's lasting address, `/news/{id}` (SPEC): what a short link records and RSS's guid, which
 * outlive a changed slug. It answers 301 to `articlePath`, so no link a reader follows uses it.
 */
export function articleIdPath(id: string): string {
  return `/news/${encodeURIComponent(id)}`;
}

/** A site path as it goes on the wire (a redirect's Location): percent-encoded, what is encoded already kept. */
export function wirePath(path: string): string {
  const url = new URL(path, "http://wire.invalid");
  return `${url.pathname}${url.search}`;
}

/** The canonical address of an article or summary. */
export function pathOf(item: { id: string; slug: string | null }): string {
  return articlePath(item.id, item.slug);
}

/** Paragraphs of an article's text; blank lines and single line breaks both separate them. */
export function paragraphs(content: string): string[] {
  return content
    .split(/\n+/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
}

export function truncate(text: string, length: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= length) return flat;
  return `${flat.slice(0, length).trimEnd()}…`;
}
