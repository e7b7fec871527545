import { BoundedCache } from "./bounded-cache";
import { LOCALE, TIME_ZONE } from "./constants";

const absoluteFormat = new Intl.DateTimeFormat(LOCALE, {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: TIME_ZONE,
});
const dayFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: "long", timeZone: TIME_ZONE });
const relativeFormat = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });

/** Dates kept formatted, at most: the pages show the same stored dates again and again, and Intl is slow. */
const FORMATTED_KEPT = 2_000;

function formattedOnce(format: Intl.DateTimeFormat): (iso: string) => string {
  const kept = new BoundedCache<string, string>({ maxEntries: FORMATTED_KEPT });
  const formatted = (iso: string) => format.format(new Date(iso));
  return (iso) => kept.get(iso, formatted);
}

/** "١٥ كانون الثاني ٢٠٢٦ في ١٢:٠٠ م", the same on server and browser. */
export const formatDateTime = formattedOnce(absoluteFormat);

export const formatDay = formattedOnce(dayFormat);

const UNITS = [
  { unit: "day", seconds: 86_400 },
  { unit: "hour", seconds: 3_600 },
  { unit: "minute", seconds: 60 },
] as const;

/** "قبل ٥ دقائق": seconds, minutes, hours or days (docs/product.md#interface). */
export function formatRelative(iso: string, now: Date = new Date()): string {
  const elapsed = Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / 1000));
  for (const { unit, seconds } of UNITS) {
    if (elapsed >= seconds) return relativeFormat.format(-Math.floor(elapsed / seconds), unit);
  }
  return relativeFormat.format(-elapsed, "second");
}

const timeFormat = new Intl.DateTimeFormat(LOCALE, { timeStyle: "short", timeZone: TIME_ZONE });

/** "١٢:٠٠ م": the time of day alone, where the day is said already. */
export const formatTime = formattedOnce(timeFormat);
