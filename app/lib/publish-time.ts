import { TIME_ZONE } from "./constants";

/*
 * The publish time of a scheduled article. The form's datetime-local input holds a wall time in
 * Asia/Beirut with no zone; the JSON API sends ISO 8601 with one. Both become a UTC ISO string.
 */

const WALL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;
const ZONED = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?(?:Z|[+-]\d{2}:\d{2})$/;

const wallParts = new Intl.DateTimeFormat("en-GB", {
  timeZone: TIME_ZONE,
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/** Beirut's wall time at `ms`, read as if it were UTC, minus `ms`: the zone's offset then. */
function offsetAt(ms: number): number {
  const part = (type: string) => Number(wallParts.formatToParts(ms).find((p) => p.type === type)?.value);
  return (
    Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second")) -
    (ms - (ms % 1000))
  );
}

/** "2026-11-22T18:30" in Beirut → the UTC moment; null when it is no such time. */
export function beirutWallTimeToIso(wallTime: string): string | null {
  const match = WALL_TIME.exec(wallTime);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(year, month - 1, day, hour, minute, second);
  // Date.UTC carries an impossible field over (13th month, 99th minute): such a time does not exist.
  if (
    new Date(asUtc).toISOString().slice(0, 19) !==
    `${match[1]}-${match[2]}-${match[3]}T${match[4]}:${match[5]}:${match[6] ?? "00"}`
  )
    return null;
  return new Date(asUtc - offsetAt(asUtc - offsetAt(asUtc))).toISOString();
}

/** A UTC moment as the datetime-local input's value in Beirut ("2026-11-22T18:30"). */
export function isoToBeirutWallTime(iso: string): string {
  const ms = Date.parse(iso);
  return new Date(ms + offsetAt(ms)).toISOString().slice(0, 16);
}

/** Date.parse rolls 2026-02-31 over to March: a day that does not exist is refused instead. */
function isCalendarDate(day: string): boolean {
  const [year = 0, month = 0, date = 0] = day.split("-").map(Number);
  return new Date(Date.UTC(year, month - 1, date)).toISOString().slice(0, 10) === day;
}

/** The form's wall time or the API's ISO 8601 → a UTC ISO string; null when it is neither. */
export function parsePublishAt(value: string): string | null {
  if (ZONED.test(value)) {
    const ms = Date.parse(value);
    return Number.isNaN(ms) || !isCalendarDate(value.slice(0, 10)) ? null : new Date(ms).toISOString();
  }
  return beirutWallTimeToIso(value);
}
