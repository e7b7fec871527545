import { useEffect } from "react";
import { countArticleVisit, countSiteVisit } from "~/lib/visits";
import { island } from "~/islands/island";

function SiteVisitCounter() {
  useEffect(() => void countSiteVisit(), []);
  return null;
}

function ArticleVisitCounter({ id }: { id: string }) {
  useEffect(() => void countArticleVisit(id), [id]);
  return null;
}

/** Counts the site visit once per browser; renders nothing. */
export const SiteVisit = island("site-visit", SiteVisitCounter);

/** Counts one visit per browser to the article; renders nothing. */
export const ArticleVisit = island("article-visit", ArticleVisitCounter);
