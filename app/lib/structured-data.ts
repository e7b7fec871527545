import { authorPath, type Credit } from "./bylines";
import { categoryLabel, categoryPath } from "./categories";
import { messages } from "./messages";
import { defaultShareImage, logoUrl, type SiteFrame } from "./site-settings";
import { updateAnchor, type CoverageView } from "./live-coverage";
import { lastUpdateAfterPublication, pathOf, shownTime, truncate, type NewsArticle } from "./news";
import { absoluteUrl } from "./seo";
import { topicPath, type Topic } from "./topics";
import type { AuthorProfile } from "./author-profile";

type LdJson = { [key: string]: LdValue };
type LdValue = string | number | boolean | null | LdJson | LdValue[];

/**
 * schema.org NewsArticle with the properties Google's article guide recommends (headline, image,
 * dates, author) and its description (the standfirst when set); the page's own tags give its
 * language (`lang`), section (`article:section`) and address (canonical).
 */
export function newsArticleJsonLd(
  baseUrl: string,
  site: Pick<SiteFrame, "name" | "images">,
  article: NewsArticle,
  shareImage: { url: string } | null,
  description: string,
  topics: readonly Pick<Topic, "name" | "slug">[] = [],
): LdJson {
  const images = [...new Set([...(shareImage ? [shareImage.url] : []), ...article.images])].map((u) =>
    absoluteUrl(baseUrl, u),
  );
  const published = shownTime(article);
  return {
    "@context": "https://schema.org",
    "@type": "NewsArticle",
    headline: article.title.slice(0, 110),
    description,
    image: images.length > 0 ? images : [absoluteUrl(baseUrl, defaultShareImage(site).url)],
    datePublished: published,
    dateModified: lastUpdateAfterPublication(article) ?? published,
    author: [authorJsonLd(baseUrl, site, article.credit)],
    publisher: publisherJsonLd(baseUrl, site),
    ...topicsJsonLd(baseUrl, topics),
  };
}

/** The article's topics: their names as `keywords`, and each as a Thing it is `about`, with its page. */
function topicsJsonLd(baseUrl: string, topics: readonly Pick<Topic, "name" | "slug">[]): LdJson {
  if (topics.length === 0) return {};
  return {
    keywords: topics.map((topic) => topic.name),
    about: topics.map((topic) => ({
      "@type": "Thing",
      name: topic.name,
      url: absoluteUrl(baseUrl, topicPath(topic.slug)),
    })),
  };
}

/** The author as a Person with their page; a byline text (a wire or a correspondent) or no credit: the site. */
function authorJsonLd(baseUrl: string, site: Pick<SiteFrame, "name" | "images">, credit: Credit | null): LdJson {
  if (credit?.isAuthor)
    return { "@type": "Person", name: credit.name, url: absoluteUrl(baseUrl, authorPath(credit.name)) };
  if (credit) return { "@type": "Organization", name: credit.name };
  return { "@type": "Organization", name: site.name, url: absoluteUrl(baseUrl, "/who") };
}

/** An author's page: a ProfilePage about a Person, with their photo, bio and links (`sameAs`). */
export function authorPageJsonLd(baseUrl: string, name: string, profile: AuthorProfile): LdJson {
  const url = absoluteUrl(baseUrl, authorPath(name));
  const person: LdJson = { "@type": "Person", name, url };
  if (profile.photo) person.image = absoluteUrl(baseUrl, profile.photo);
  if (profile.bio) person.description = profile.bio;
  if (profile.links.length > 0) person.sameAs = profile.links;
  return { "@context": "https://schema.org", "@type": "ProfilePage", url, mainEntity: person };
}

/** The outlet: its name from the settings and its logo. */
function publisherJsonLd(baseUrl: string, site: Pick<SiteFrame, "name" | "images">): LdJson {
  return {
    "@type": "Organization",
    name: site.name,
    url: absoluteUrl(baseUrl, "/"),
    logo: { "@type": "ImageObject", url: absoluteUrl(baseUrl, logoUrl(site)) },
  };
}

export function breadcrumbJsonLd(
  baseUrl: string,
  article: Pick<NewsArticle, "id" | "slug" | "title" | "category">,
): LdJson {
  const crumbs = [
    { name: messages.home, path: "/" },
    { name: categoryLabel(article.category), path: categoryPath(article.category) },
    { name: article.title, path: pathOf(article) },
  ];
  return {
    "@context": "https://schema.org",
    "@type": "BreadcrumbList",
    itemListElement: crumbs.map((crumb, index) => ({
      "@type": "ListItem",
      position: index + 1,
      name: crumb.name,
      item: absoluteUrl(baseUrl, crumb.path),
    })),
  };
}

/** The breaking page as an ItemList of its items, newest first. */
export function breakingItemListJsonLd(
  baseUrl: string,
  items: { id: string; title: string; slug: string | null }[],
): LdJson {
  return {
    "@context": "https://schema.org",
    "@type": "ItemList",
    name: categoryLabel("breaking"),
    itemListOrder: "https://schema.org/ItemListOrderDescending",
    numberOfItems: items.length,
    itemListElement: items.map((item, index) => ({
      "@type": "ListItem",
      position: index + 1,
      url: absoluteUrl(baseUrl, pathOf(item)),
      name: item.title,
    })),
  };
}

/**
 * A story with live coverage: the NewsArticle becomes a LiveBlogPosting (a kind of it) with when the
 * coverage started and ended and each update as a `liveBlogUpdate`, linked to its anchor.
 */
export function liveBlogJsonLd(
  articleLd: LdJson,
  baseUrl: string,
  article: Pick<NewsArticle, "id" | "slug">,
  view: CoverageView,
): LdJson {
  if (!view.coverage) return articleLd;
  const url = absoluteUrl(baseUrl, pathOf(article));
  return {
    ...articleLd,
    "@type": "LiveBlogPosting",
    coverageStartTime: view.coverage.startedAt,
    ...(view.coverage.endedAt ? { coverageEndTime: view.coverage.endedAt } : {}),
    liveBlogUpdate: view.updates.map((update) => ({
      "@type": "BlogPosting",
      headline: truncate(update.text.split("\n")[0] ?? "", 110),
      articleBody: update.text,
      datePublished: update.createdAt,
      dateModified: update.updatedAt,
      url: `${url}#${updateAnchor(update.id)}`,
      author: { "@type": "Person", name: update.authorName },
    })),
  };
}
