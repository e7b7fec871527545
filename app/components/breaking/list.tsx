import type { BreakingItem } from "~/lib/breaking";
import { messages } from "~/lib/messages";
import { pathOf } from "~/lib/news";
import { island } from "~/islands/island";
import { DeleteArticleButton } from "../admin-actions";
import { useLiveBreaking } from "./live";
import { EmptyState, LiveBadge } from "../news-card";
import { RelativeTime } from "../relative-time";

type Item = Pick<BreakingItem, "id" | "title" | "slug" | "publishedAt" | "live">;

/** The server's list until the shared breaking stream takes over. */
function List({ initial, isAdmin }: { initial: Item[]; isAdmin: boolean }) {
  const live = useLiveBreaking();
  const items: Item[] = live.live ? live.items : initial;
  if (items.length === 0) return <EmptyState text={messages.noBreakingNews} />;
  return (
    <ol className="space-y-3" data-testid="breaking-list" aria-live="polite">
      {items.map((item) => (
        <li
          key={item.id}
          data-fresh={live.fresh.has(item.id) || undefined}
          className="rounded-lg border-s-4 border-brand-600 bg-white p-4 shadow-sm ring-1 ring-stone-200 transition-colors duration-1000 data-fresh:bg-amber-50 data-fresh:ring-amber-300"
        >
          <div className="flex items-start justify-between gap-3">
            <div>
              <div className="flex items-center gap-2">
                {item.live && <LiveBadge />}
                <RelativeTime iso={item.publishedAt} className="text-sm font-bold text-brand-700" />
              </div>
              <h2 className="mt-1 text-lg leading-snug font-bold">
                <a href={pathOf(item)} className="hover:text-brand-700">
                  {item.title}
                </a>
              </h2>
            </div>
            {isAdmin && (
              <DeleteArticleButton
                id={item.id}
                confirmText={messages.confirmDeleteBreaking}
                redirectTo="/breaking"
                className="rounded border border-stone-300 px-2 py-1 text-sm font-bold text-brand-700 hover:bg-stone-100"
              />
            )}
          </div>
        </li>
      ))}
    </ol>
  );
}

export const BreakingList = island("breaking-list", List);
