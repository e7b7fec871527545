import { useEffect, useState } from "react";
import { LATEST_NEWS_REFRESH_MS, MOST_READ_SHOWN } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { teaserOf, type NewsTeaser, type SidebarLists } from "~/lib/news";
import { poll } from "~/lib/poll";
import { island } from "~/islands/island";
import { EmptyState, NewsRow, SectionHeading } from "./news-card";
import { usePrerendered } from "./prerendered";

const LATEST_LIST_ID = "latest-list";

function LatestRows({ items }: { items: NewsTeaser[] }) {
  if (items.length === 0) return <EmptyState text={messages.noNews} />;
  return (
    <ul className="row-list">
      {items.map((item) => (
        <NewsRow key={item.id} item={item} />
      ))}
    </ul>
  );
}

/**
 * Every 60 s, while the page is visible, shows the rows of /api/latest in place of the latest news
 * rendered with the page (which it hides). An island of its own without props: the rows rendered
 * with the page stay plain HTML, so the page does not carry the list twice (as markup and as props).
 */
function Refresh() {
  const [items, setItems] = useState<NewsTeaser[] | null>(null);
  useEffect(() => {
    const timer = window.setInterval(async () => {
      if (document.visibilityState !== "visible") return;
      try {
        const response = await poll("/api/latest");
        if (response.ok) setItems(((await response.json()) as { items: NewsTeaser[] }).items);
      } catch {
        // the next refresh tries again
      }
    }, LATEST_NEWS_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, []);
  useEffect(() => {
    const rendered = document.getElementById(LATEST_LIST_ID);
    if (items && rendered) rendered.hidden = true;
  }, [items]);
  return items && <LatestRows items={items} />;
}

export const LatestRefresh = island("latest-refresh", Refresh);

/** Latest news, refreshed every 60 s from /api/latest without reloading the page. */
function LatestNews({ items }: { items: NewsTeaser[] }) {
  return (
    <section aria-labelledby="latest-heading" data-testid="latest-news">
      <SectionHeading id="latest-heading" title={messages.latestNews} />
      <div id={LATEST_LIST_ID}>
        <LatestRows items={items} />
      </div>
      <LatestRefresh />
    </section>
  );
}

/** 8 fetched by visits, 4 shown (docs/product.md#lists). */
export function MostRead({ items }: { items: NewsTeaser[] }) {
  const shown = items.slice(0, MOST_READ_SHOWN);
  return (
    <section aria-labelledby="most-read-heading" data-testid="most-read">
      <SectionHeading id="most-read-heading" title={messages.mostRead} />
      {shown.length === 0 ? (
        <EmptyState text={messages.noNews} />
      ) : (
        <ol className="row-list">
          {shown.map((item, index) => (
            <NewsRow key={item.id} item={item} rank={index + 1} />
          ))}
        </ol>
      )}
    </section>
  );
}

const SIDEBAR_CLASS = "flex flex-col gap-10";

/**
 * Beside home and every article: latest news, then most read. Where the page prerenders
 * (`usePrerendered`), each list's HTML is made once per list the read cache shares.
 */
export function Sidebar({ latest, mostRead }: SidebarLists) {
  const prerendered = usePrerendered();
  if (prerendered) {
    const html =
      prerendered.once(latest, () => <LatestNews items={latest.map(teaserOf)} />) +
      prerendered.once(mostRead, () => <MostRead items={mostRead} />);
    return <aside className={SIDEBAR_CLASS} dangerouslySetInnerHTML={{ __html: html }} />;
  }
  return (
    <aside className={SIDEBAR_CLASS}>
      <LatestNews items={latest.map(teaserOf)} />
      <MostRead items={mostRead} />
    </aside>
  );
}
