import type { RangeRequest } from "~/server/media/storage.server";

// At most 15 digits: every such number is an exact integer, and far past any file we store.
const SINGLE_RANGE = /^bytes=(\d{1,15})?-(\d{1,15})?$/;

/**
 * The one byte range a Range header asks for, or null to send the whole file: no header, another
 * unit, several ranges, or a range that does not parse (RFC 9110 §14.2 lets a server ignore those).
 * `bytes=-0` is kept: it is a valid range no file can satisfy (416).
 */
export function parseRange(header: string | undefined): RangeRequest | null {
  const match = SINGLE_RANGE.exec(header?.replace(/\s+/g, "") ?? "");
  if (!match) return null;
  const [, first, last] = match;
  if (first === undefined) return last === undefined ? null : { suffix: Number(last) };
  const start = Number(first);
  if (last === undefined) return { start };
  const end = Number(last);
  return end < start ? null : { start, end };
}
