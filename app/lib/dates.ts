import { LOCALE, TIME_ZONE } from "./constants";

const absoluteFormat = new Intl.DateTimeFormat(LOCALE, {
  dateStyle: "long",
  timeStyle: "short",
  timeZone: TIME_ZONE,
});
const dayFormat = new Intl.DateTimeFormat(LOCALE, { dateStyle: "long", timeZone: TIME_ZONE });
const relativeFormat = new Intl.RelativeTimeFormat(LOCALE, { numeric: "auto" });

/** "١٥ كانون الثاني ٢٠٢٦ في ١٢:٠٠ م", the same on server and browser. */
export function formatDateTime(iso: string): string {
  return absoluteFormat.format(new Date(iso));
}

export function formatDay(iso: string): string {
  return dayFormat.format(new Date(iso));
}

const UNITS = [
  { unit: "day", seconds: 86_400 },
  { unit: "hour", seconds: 3_600 },
  { unit: "minute", seconds: 60 },
] as const;

/** "قبل ٥ دقائق": seconds, minutes, hours or days (SPEC.md §9). */
export function formatRelative(iso: string, now: Date = new Date()): string {
  const elapsed = Math.max(0, Math.round((now.getTime() - new Date(iso).getTime()) / 1000));
  for (const { unit, seconds } of UNITS) {
    if (elapsed >= seconds) return relativeFormat.format(-Math.floor(elapsed / seconds), unit);
  }
  return relativeFormat.format(-elapsed, "second");
}
