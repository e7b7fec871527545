import { useState } from "react";
import { categoryPath, type Category } from "~/lib/categories";
import { messages } from "~/lib/messages";
import type { NewsSummary } from "~/lib/news";
import { island } from "~/islands/island";
import { EmptyState, NewsCard } from "./news-card";

type Props = { category: Category; page: number; items: NewsSummary[]; hasMore: boolean };
type Loaded = { items: NewsSummary[]; page: number; hasMore: boolean };

/** A category's cards; 'المزيد' appends the next page in place, and is a plain ?page=N link without JavaScript. */
function List({ category, page, items, hasMore }: Props) {
  const [loaded, setLoaded] = useState<Loaded>({ items: [], page, hasMore });
  const [loading, setLoading] = useState(false);
  const path = categoryPath(category);
  const shown = [...items, ...loaded.items];
  const nextPage = loaded.page + 1;

  async function loadMore(event: React.MouseEvent) {
    event.preventDefault();
    if (loading) return;
    setLoading(true);
    try {
      const response = await fetch(`/api/latest?category=${encodeURIComponent(category)}&page=${nextPage}`);
      if (!response.ok) throw new Error(String(response.status));
      const next = (await response.json()) as Loaded;
      setLoaded((current) => ({ items: [...current.items, ...next.items], page: next.page, hasMore: next.hasMore }));
    } catch {
      window.location.assign(`${path}?page=${nextPage}`);
    } finally {
      setLoading(false);
    }
  }

  return (
    <>
      {shown.length === 0 ? (
        <EmptyState text={messages.noNews} />
      ) : (
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="category-list">
          {shown.map((item, index) => (
            <NewsCard key={item.id} item={item} eager={index < 3 && page === 1} />
          ))}
        </div>
      )}
      <nav className="mt-8 flex justify-center gap-3" aria-label={messages.page}>
        {page > 1 && loaded.items.length === 0 && (
          <a href={page === 2 ? path : `${path}?page=${page - 1}`} rel="prev" className="rounded border border-stone-300 bg-white px-5 py-2 font-bold hover:bg-stone-100">
            {messages.previousPage}
          </a>
        )}
        {loaded.hasMore && (
          <a
            href={`${path}?page=${nextPage}`}
            rel="next"
            onClick={loadMore}
            aria-busy={loading}
            className="rounded bg-brand-600 px-8 py-2 font-bold text-white hover:bg-brand-700"
          >
            {loading ? messages.loading : messages.more}
          </a>
        )}
      </nav>
    </>
  );
}

export const CategoryList = island("category-list", List);
