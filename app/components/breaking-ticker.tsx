import { BREAKING_TICKER_SIZE, type BreakingItem } from "~/lib/breaking";
import { categoryLabel } from "~/lib/categories";
import { articlePath } from "~/lib/news";
import { island } from "~/islands/island";
import { useLiveBreaking } from "./live-breaking";

/** 'عاجل' under the navbar on every page: the newest breaking titles, hidden when there are none. */
/** The ticker shows titles and links: its props carry no more (the live list has whole items). */
type TickerItem = Pick<BreakingItem, "id" | "title">;

function Ticker({ initial }: { initial: TickerItem[] }) {
  const live = useLiveBreaking();
  const shown: TickerItem[] = (live.live ? live.items : initial).slice(0, BREAKING_TICKER_SIZE);
  if (shown.length === 0) return null;
  return (
    <section aria-label={categoryLabel("breaking")} className="border-b border-brand-100 bg-white" data-testid="breaking-ticker">
      <div className="mx-auto flex max-w-6xl items-stretch gap-3 px-4">
        <a href="/breaking" className="ticker-label">
          {categoryLabel("breaking")}
        </a>
        <div className="relative min-w-0 flex-1 overflow-x-auto">
          <ul className="flex w-max items-center gap-6 py-2.5 whitespace-nowrap">
            {shown.map((item, index) => (
              <li key={item.id} className={index > 0 ? "ticker-next" : undefined}>
                <a href={articlePath(item.id)} className="ticker-link">
                  {item.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}

export const BreakingTicker = island("breaking-ticker", Ticker);
