import type { MetaDescriptor } from "react-router";
import { defaultShareImage, frameOf, NEUTRAL_SETTINGS, type SiteFrame } from "./site-settings";

export type PageMeta = {
  baseUrl: string;
  /** og:site_name, and the share image of a page without its own (siteMetaOf gives both). */
  site: Pick<SiteFrame, "name" | "images">;
  /** The page's own path (no query unless it is part of the page's identity). */
  path: string;
  title: string;
  description: string;
  /** Pages that must stay out of search engines: dashboard, edit, sign-in, search. */
  noindex?: boolean;
  image?: { url: string; width?: number; height?: number; alt: string } | null;
  type?: "website" | "article";
  /** What a share preview says instead of `title` and `description` (an article's share title and description). */
  share?: { title?: string | null; description?: string | null };
};

/** An absolute URL on the site for a path (percent-encoded as a URL must be), or the URL itself when it already has an origin. */
export function absoluteUrl(baseUrl: string, path: string): string {
  return new URL(path, `${baseUrl}/`).href;
}

/** The tags every page carries: title, description, canonical, robots and Open Graph basics. */
export function pageMeta(page: PageMeta): MetaDescriptor[] {
  const url = absoluteUrl(page.baseUrl, page.path);
  const image = page.image === undefined ? defaultShareImage(page.site) : page.image;
  const tags: MetaDescriptor[] = [
    { title: page.title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { name: "robots", content: page.noindex ? "noindex, nofollow" : "max-image-preview:large" },
    { property: "og:site_name", content: page.site.name },
    { property: "og:locale", content: "ar_LB" },
    { property: "og:type", content: page.type ?? "website" },
    { property: "og:title", content: page.share?.title || page.title },
    { property: "og:description", content: page.share?.description || page.description },
    { property: "og:url", content: url },
    // X reads og:title, og:description and og:image where its own twitter:* are missing.
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
  ];
  if (page.share?.title) tags.push({ name: "twitter:title", content: page.share.title });
  if (page.share?.description) tags.push({ name: "twitter:description", content: page.share.description });
  if (image) {
    const imageUrl = absoluteUrl(page.baseUrl, image.url);
    tags.push({ property: "og:image", content: imageUrl }, { property: "og:image:alt", content: image.alt });
    if (image.width && image.height) {
      tags.push(
        { property: "og:image:width", content: String(image.width) },
        { property: "og:image:height", content: String(image.height) },
      );
    }
  }
  return tags;
}

type Matches = readonly ({ id: string; data?: unknown } | undefined)[];

/** The site's base URL as the root loader gave it, for meta functions. */
export function baseUrlOf(matches: Matches): string {
  const root = matches.find((m) => m?.id === "root")?.data as { baseUrl?: string } | undefined;
  return root?.baseUrl ?? "";
}

const NEUTRAL_FRAME = frameOf(NEUTRAL_SETTINGS, false);

/** The site's settings as the root loader gave them, for meta functions. */
export function siteOf(matches: Matches): SiteFrame {
  const root = matches.find((m) => m?.id === "root")?.data as { site?: SiteFrame } | undefined;
  return root?.site ?? NEUTRAL_FRAME;
}

/** What pageMeta needs of the site: its address and its settings. */
export function siteMetaOf(matches: Matches): Pick<PageMeta, "baseUrl" | "site"> {
  return { baseUrl: baseUrlOf(matches), site: siteOf(matches) };
}
