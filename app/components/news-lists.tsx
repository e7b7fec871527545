import { useEffect } from "react";
import { useFetcher } from "react-router";
import { LATEST_NEWS_REFRESH_MS, MOST_READ_SHOWN } from "~/lib/constants";
import { messages } from "~/lib/messages";
import type { NewsSummary } from "~/lib/news";
import { EmptyState, NewsRow, SectionHeading } from "./news-card";

/** Latest news, refreshed every 60 s from /api/latest without reloading the page. */
export function LatestNews({ items }: { items: NewsSummary[] }) {
  const fetcher = useFetcher<{ items: NewsSummary[] }>();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") fetcher.load("/api/latest");
    }, LATEST_NEWS_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  const shown = fetcher.data?.items ?? items;
  return (
    <section aria-labelledby="latest-heading" data-testid="latest-news">
      <SectionHeading id="latest-heading" title={messages.latestNews} />
      {shown.length === 0 ? (
        <EmptyState text={messages.noNews} />
      ) : (
        <ul className="divide-y divide-stone-200 rounded-lg bg-white px-3 ring-1 ring-stone-200">
          {shown.map((item) => (
            <NewsRow key={item.id} item={item} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** SPEC.md §9: 8 fetched by visits, 4 shown. */
export function MostRead({ items }: { items: NewsSummary[] }) {
  const shown = items.slice(0, MOST_READ_SHOWN);
  return (
    <section aria-labelledby="most-read-heading" data-testid="most-read">
      <SectionHeading id="most-read-heading" title={messages.mostRead} />
      {shown.length === 0 ? (
        <EmptyState text={messages.noNews} />
      ) : (
        <ol className="divide-y divide-stone-200 rounded-lg bg-white px-3 ring-1 ring-stone-200">
          {shown.map((item, index) => (
            <NewsRow key={item.id} item={item} rank={index + 1} />
          ))}
        </ol>
      )}
    </section>
  );
}
