import { LOCALE, TIME_ZONE } from "~/lib/constants";
import type { StatsRange } from "~/lib/stats-ranges";
import { beirutDay, utcHour } from "~/server/visits/view.server";

/** One point of a curve: its stored period and the label the chart shows. */
export type Period = { period: string; label: string };

const hourLabel = new Intl.DateTimeFormat(LOCALE, { hour: "numeric", timeZone: TIME_ZONE });
const dayLabel = new Intl.DateTimeFormat(LOCALE, { day: "numeric", month: "numeric", timeZone: TIME_ZONE });
const HOUR_MS = 3_600_000;

/** Today's UTC hours that fall on Beirut's today, up to now. */
export function hoursOfToday(now: Date): Period[] {
  const today = beirutDay(now);
  const hours: Period[] = [];
  for (let back = 26; back >= 0; back--) {
    const at = new Date(now.getTime() - back * HOUR_MS);
    if (beirutDay(at) === today) hours.push({ period: utcHour(at), label: hourLabel.format(at) });
  }
  return hours;
}

/** The last `days` Beirut days, oldest first. */
export function lastDays(now: Date, days: number): Period[] {
  const periods = new Map<string, Period>();
  for (let back = days - 1; back >= 0; back--) {
    const at = new Date(now.getTime() - back * 24 * HOUR_MS);
    periods.set(beirutDay(at), { period: beirutDay(at), label: dayLabel.format(at) });
  }
  return [...periods.values()];
}

/** The hours from `from`'s to `now`'s (at most 72), for a story's first days. */
export function hoursBetween(from: Date, now: Date): Period[] {
  const hours: Period[] = [];
  const first = Math.max(from.getTime(), now.getTime() - 71 * HOUR_MS);
  for (let at = first - (first % HOUR_MS); at <= now.getTime(); at += HOUR_MS) {
    const moment = new Date(at);
    hours.push({ period: utcHour(moment), label: hourLabel.format(moment) });
  }
  return hours;
}

export function periodsOf(range: StatsRange, now: Date): { table: "stats_hourly" | "stats_daily"; periods: Period[] } {
  if (range === "today") return { table: "stats_hourly", periods: hoursOfToday(now) };
  return { table: "stats_daily", periods: lastDays(now, range === "7d" ? 7 : 30) };
}
