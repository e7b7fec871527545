import type { Device, Source } from "~/lib/reader-classes";
import { clientKey } from "~/server/platform/client-keys.server";

/** Beirut's calendar day of a moment, `YYYY-MM-DD`: the newsroom's "today". */
const beirutDayFormat = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Asia/Beirut",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});
const HOUR_MS = 3_600_000;
// Beirut's offsets are whole hours, so a UTC hour falls on one Beirut day: formatted once per hour (Intl is slow).
let lastHour = { hour: NaN, day: "" };
export function beirutDay(at: Date): string {
  const hour = Math.floor(at.getTime() / HOUR_MS);
  if (hour !== lastHour.hour) lastHour = { hour, day: beirutDayFormat.format(at) };
  return lastHour.day;
}
export const utcHour = (at: Date): string => at.toISOString().slice(0, 13);
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * One browser's first view of an article (or of the site: `newsId` null), as the buffer keeps it until
 * it is written: keyed hashes only, never the address, the browser's id or the referrer.
 */
export type View = {
  newsId: string | null;
  /** The browser and its target on this UTC day: a browser counts once a day on the server too. */
  browserKey: string;
  /** The address and the target on this UTC day: the inflation bound's counter. */
  addressKey: string;
  /** The browser in this UTC hour and on this Beirut day: readers are distinct browsers. */
  hourReaderKey: string;
  dayReaderKey: string;
  /** A short name of the browser for the "now" panel. */
  liveReader: string;
  source: Source;
  device: Device;
  at: Date;
};

export type ViewInput = {
  newsId: string | null;
  reader: string;
  address: string;
  source: Source;
  device: Device;
  at: Date;
};

export function viewOf(secret: string, input: ViewInput): View {
  const { newsId, reader, address, source, device, at } = input;
  const day = utcDay(at);
  const target = newsId === null ? "site" : `news:${newsId}`;
  return {
    newsId,
    browserKey: clientKey(secret, "browser", day, reader, target),
    addressKey: clientKey(secret, "address", day, address, target),
    hourReaderKey: clientKey(secret, "reader-hour", utcHour(at), reader),
    dayReaderKey: clientKey(secret, "reader-day", beirutDay(at), reader),
    liveReader: clientKey(secret, "live", day, reader).slice(0, 12),
    source,
    device,
    at,
  };
}
