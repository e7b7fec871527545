import { TIME_ZONE } from "./constants";

/** A full ISO 8601 moment with its offset (what the JSON API sends). */
const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
/** A wall-clock time without offset (what a datetime-local input posts), read in the site's time zone. */
const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

const zoneParts = new Intl.DateTimeFormat("en-US", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** How far the site's time zone is ahead of UTC at `utcMillis`, in milliseconds. */
function zoneOffset(utcMillis: number): number {
  const parts = Object.fromEntries(zoneParts.formatToParts(new Date(utcMillis)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return wall - Math.floor(utcMillis / 1000) * 1000;
}

/** `value` as an ISO 8601 UTC moment, or null when it is not a real date and time. */
export function parsePublishTime(value: string): string | null {
  if (WITH_OFFSET.test(value)) {
    const time = Date.parse(value);
    return Number.isNaN(time) || !sameCalendarDay(value) ? null : new Date(time).toISOString();
  }
  const wall = WALL_CLOCK.exec(value);
  if (!wall) return null;
  const [year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0] = wall.slice(1).map((n) => Number(n ?? 0));
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  if (new Date(asUtc).getUTCDate() !== day) return null;
  const once = asUtc - zoneOffset(asUtc);
  return new Date(asUtc - zoneOffset(once)).toISOString();
}

/** Date.parse rolls 2026-02-31 over to March; a date that does not exist is refused instead. */
function sameCalendarDay(value: string): boolean {
  const [year = 0, month = 0, day = 0] = value.slice(0, 10).split("-").map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** The datetime-local value (site time zone) showing the moment `iso`. */
export function wallClockOf(iso: string): string {
  const time = Date.parse(iso);
  return new Date(time + zoneOffset(time)).toISOString().slice(0, 16);
}
