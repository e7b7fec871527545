import { BREAKING_TICKER_SIZE, type BreakingItem } from "~/lib/breaking";
import { categoryLabel } from "~/lib/categories";
import { pathOf } from "~/lib/news";
import { island } from "~/islands/island";
import { useLiveBreaking } from "./live";
import { TickerAlertBell } from "../alert-bell/alert-bell";
import { LiveBadge } from "../news-card";

/** 'عاجل' under the navbar on every page: the newest breaking titles, hidden when there are none. */
/** The ticker shows titles and links: its props carry no more (the live list has whole items). */
type TickerItem = Pick<BreakingItem, "id" | "title" | "slug" | "live">;

function Ticker({ initial }: { initial: TickerItem[] }) {
  const live = useLiveBreaking();
  const shown: TickerItem[] = (live.live ? live.items : initial).slice(0, BREAKING_TICKER_SIZE);
  if (shown.length === 0) return null;
  return (
    <section aria-label={categoryLabel("breaking")} className="ticker" data-testid="breaking-ticker">
      <div>
        <a href="/breaking">{categoryLabel("breaking")}</a>
        <div>
          <ul>
            {shown.map((item) => (
              <li key={item.id}>
                <a href={pathOf(item)}>
                  {item.live && <LiveBadge />}
                  {item.title}
                </a>
              </li>
            ))}
          </ul>
        </div>
        <TickerAlertBell />
      </div>
    </section>
  );
}

export const BreakingTicker = island("breaking-ticker", Ticker);
