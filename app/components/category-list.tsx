import { useState, useSyncExternalStore } from "react";
import { messages } from "~/lib/messages";
import type { NewsSummary } from "~/lib/news";
import { island } from "~/islands/island";
import { EmptyState, NewsCard } from "./news-card";

/** `path`: the list's own page (its ?page=N links); `moreApi`: the API address that gives its next page with `&page=N`. */
type Props = { path: string; moreApi: string; page: number; items: NewsSummary[]; hasMore: boolean };
type Loaded = { items: NewsSummary[]; page: number; hasMore: boolean };

/**
 * The cards 'المزيد' brought, shared by the two islands below (decision 004: state between islands
 * lives in modules). Never written on the server, where every page renders with none.
 */
const NONE: NewsSummary[] = [];
let appended = NONE;
const listeners = new Set<() => void>();

function append(items: NewsSummary[]) {
  appended = [...appended, ...items];
  for (const listener of listeners) listener();
}

function useAppended(): NewsSummary[] {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => appended,
    () => NONE,
  );
}

/** Inside the grid, after the page's own cards: the wrapper is `display: contents`, so these are grid cells too. */
function AppendedCards() {
  return useAppended().map((item) => <NewsCard key={item.id} item={item} />);
}

export const CategoryMoreCards = island("category-more-cards", AppendedCards);

/** 'السابق' and 'المزيد': the next page appended in place, or a plain ?page=N link without JavaScript. */
function Pages({ path, moreApi, page, hasMore }: Omit<Props, "items">) {
  const appendedCount = useAppended().length;
  const [loaded, setLoaded] = useState<Omit<Loaded, "items">>({ page, hasMore });
  const [loading, setLoading] = useState(false);
  const nextPage = loaded.page + 1;

  async function loadMore(event: React.MouseEvent) {
    event.preventDefault();
    if (loading) return;
    setLoading(true);
    try {
      const response = await fetch(`${moreApi}&page=${nextPage}`);
      if (!response.ok) throw new Error(String(response.status));
      const next = (await response.json()) as Loaded;
      append(next.items);
      setLoaded({ page: next.page, hasMore: next.hasMore });
    } catch {
      window.location.assign(`${path}?page=${nextPage}`);
    } finally {
      setLoading(false);
    }
  }

  return (
    <nav className="mt-8 flex justify-center gap-3" aria-label={messages.page}>
      {page > 1 && appendedCount === 0 && (
        <a
          href={page === 2 ? path : `${path}?page=${page - 1}`}
          rel="prev"
          className="rounded border border-stone-300 bg-white px-5 py-2 font-bold hover:bg-stone-100"
        >
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
  );
}

export const CategoryPages = island("category-pages", Pages);

/**
 * A category's (or a topic's) cards, plain HTML as the page renders them; only the pages' links are interactive
 * (decision 014: the page does not carry its cards twice, as markup and as an island's props).
 */
export function CategoryList({ path, moreApi, page, items, hasMore }: Props) {
  return (
    <>
      {items.length === 0 ? (
        <EmptyState text={messages.noNews} />
      ) : (
        <div className="grid gap-5 sm:grid-cols-2 lg:grid-cols-3" data-testid="category-list">
          {items.map((item, index) => (
            <NewsCard key={item.id} item={item} eager={index < 3 && page === 1} />
          ))}
          <CategoryMoreCards />
        </div>
      )}
      <CategoryPages path={path} moreApi={moreApi} page={page} hasMore={hasMore} />
    </>
  );
}
