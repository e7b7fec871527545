import { useEffect, useState } from "react";
import { formatDateTime, formatRelative } from "~/lib/dates";
import { island } from "~/islands/island";

/**
 * The server renders the absolute date; after hydration the browser swaps in the relative one,
 * so both renders agree and the reader still sees "قبل ٥ دقائق".
 */
function Time({ iso, className = "" }: { iso: string; className?: string }) {
  const [relative, setRelative] = useState<string | null>(null);
  useEffect(() => {
    setRelative(formatRelative(iso));
    const timer = window.setInterval(() => setRelative(formatRelative(iso)), 30_000);
    return () => window.clearInterval(timer);
  }, [iso]);
  const absolute = formatDateTime(iso);
  return (
    <time dateTime={iso} title={absolute} className={className}>
      {relative ?? absolute}
    </time>
  );
}

export const RelativeTime = island("relative-time", Time);
