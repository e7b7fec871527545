import { useEffect, useState } from "react";
import { formatDateTime, formatRelative } from "~/lib/dates";

/** How often a shown relative time is brought up to date. */
export const RELATIVE_TIME_REFRESH_MS = 30_000;

/**
 * The server renders the absolute date; in the browser the relative one ("قبل ٥ دقائق") takes its
 * place, with the absolute date as its title, so hydration never differs. Inside an island (or a
 * page hydrated whole) React swaps it; elsewhere `showRelativeTimes` (app/islands/relative-times.ts)
 * does, by the `data-relative` mark, so a static card costs no island of its own.
 */
export function RelativeTime({ iso, className }: { iso: string; className?: string }) {
  const [relative, setRelative] = useState<string | null>(null);
  useEffect(() => {
    setRelative(formatRelative(iso));
    const timer = window.setInterval(() => setRelative(formatRelative(iso)), RELATIVE_TIME_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [iso]);
  return (
    <time dateTime={iso} data-relative="" title={relative ? formatDateTime(iso) : undefined} className={className}>
      {relative ?? formatDateTime(iso)}
    </time>
  );
}
