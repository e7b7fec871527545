import { LOCALE, TIME_ZONE } from "./constants";

/* The scheduled stories' month view: months and days as the site's time zone counts them. */

/** A month of the calendar: its year and its number, 1 to 12. */
export type CalendarMonth = { year: number; month: number };

const dayParts = new Intl.DateTimeFormat("en-CA", {
  timeZone: TIME_ZONE,
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});
const monthName = new Intl.DateTimeFormat(LOCALE, { timeZone: "UTC", month: "long", year: "numeric" });
const weekdayName = new Intl.DateTimeFormat(LOCALE, { timeZone: "UTC", weekday: "long" });
const dayNumber = new Intl.NumberFormat(LOCALE);

/** The site's calendar day of an instant, "YYYY-MM-DD". */
export function localDay(instant: Date): string {
  return dayParts.format(instant);
}

export function monthOf(instant: Date): CalendarMonth {
  const [year, month] = localDay(instant).split("-").map(Number);
  return { year: year!, month: month! };
}

/** `?month=YYYY-MM` between 2000 and 2100; anything else is null (the page then shows the current month). */
export function parseMonth(text: string | null): CalendarMonth | null {
  const match = /^(\d{4})-(\d{2})$/.exec(text ?? "");
  if (!match) return null;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return year >= 2000 && year <= 2100 && month >= 1 && month <= 12 ? { year, month } : null;
}

export function monthParam({ year, month }: CalendarMonth): string {
  return `${year}-${String(month).padStart(2, "0")}`;
}

export function shiftMonth({ year, month }: CalendarMonth, by: number): CalendarMonth {
  const index = year * 12 + (month - 1) + by;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

export function daysIn({ year, month }: CalendarMonth): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Instants safely before the month's first local day and after its last, whatever the zone's offset. */
export function monthSpan(month: CalendarMonth): { from: string; to: string } {
  return {
    from: new Date(Date.UTC(month.year, month.month - 1, 1) - 86_400_000).toISOString(),
    to: new Date(Date.UTC(month.year, month.month - 1, daysIn(month) + 1) + 86_400_000).toISOString(),
  };
}

export const monthTitle = ({ year, month }: CalendarMonth) => monthName.format(new Date(Date.UTC(year, month - 1, 15)));

/** Weeks start on Monday, as Lebanon's calendars do: 0 for Monday to 6 for Sunday. */
export function weekdayIndex(year: number, month: number, day: number): number {
  return (new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 6) % 7;
}

/** The seven day names in the calendar's order. 2024-01-01 was a Monday. */
export const WEEKDAY_NAMES = Array.from({ length: 7 }, (_, i) =>
  weekdayName.format(new Date(Date.UTC(2024, 0, 1 + i))),
);

export const weekdayOf = (year: number, month: number, day: number) => WEEKDAY_NAMES[weekdayIndex(year, month, day)]!;

export const dayLabel = (day: number) => dayNumber.format(day);
