import { RELATIVE_TIME_REFRESH_MS } from "~/components/relative-time";
import { formatDateTime, formatRelative } from "~/lib/dates";

/**
 * Swaps every server-rendered <RelativeTime> outside the islands (which React keeps up to date
 * itself) to its relative form, and keeps it current.
 */
export function showRelativeTimes(root: ParentNode = document): void {
  const times = [...root.querySelectorAll<HTMLTimeElement>("time[data-relative]")].filter(
    (time) => !time.closest("ak-island"),
  );
  const update = () => {
    for (const time of times) {
      time.textContent = formatRelative(time.dateTime);
      time.title = formatDateTime(time.dateTime);
    }
  };
  update();
  if (times.length > 0) window.setInterval(update, RELATIVE_TIME_REFRESH_MS);
}
