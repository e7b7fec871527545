/**
 * Snippets and highlights cut from the original text (never the normalized one), with the words that
 * matched marked; rendered as text and <mark> elements, so nothing in an article is ever read as HTML.
 */
import { normalizeWithSourceMap } from "./arabic";
import { SEARCH_SNIPPET_LENGTH } from "~/lib/constants";
import { matchesWord, type QueryWord } from "./search-terms";

export type Segment = { text: string; match: boolean };

type Range = { start: number; end: number };

const ELLIPSIS = "…";

/** Where in the original text each matching word lies, in order; read lazily, as a snippet needs only the first few. */
function* matchRanges(text: string, query: QueryWord[]): Generator<Range> {
  const { text: normalized, sourceStart, sourceEnd } = normalizeWithSourceMap(text);
  const known = new Map<string, boolean>();
  const isHit = (word: string) => {
    let hit = known.get(word);
    if (hit === undefined) known.set(word, (hit = query.some((q) => matchesWord(word, q))));
    return hit;
  };
  let at = 0;
  for (const word of normalized.split(" ")) {
    const end = at + word.length;
    if (word !== "" && isHit(word)) yield { start: sourceStart[at] ?? 0, end: sourceEnd[end - 1] ?? text.length };
    at = end + 1;
  }
}

function segmentsOf(text: string, window: Range, matches: Range[]): Segment[] {
  const segments: Segment[] = [];
  const push = (piece: string, match: boolean) => {
    const flat = piece.replace(/\s+/g, " ");
    if (flat === "") return;
    const last = segments.at(-1);
    if (last && last.match === match) last.text += flat;
    else segments.push({ text: flat, match });
  };
  let at = window.start;
  for (const range of matches) {
    const start = Math.max(range.start, at);
    const end = Math.min(range.end, window.end);
    if (end <= start) continue;
    push(text.slice(at, start), false);
    push(text.slice(start, end), true);
    at = end;
  }
  push(text.slice(at, window.end), false);
  return segments;
}

function isSpace(char: string | undefined): boolean {
  return char !== undefined && /\s/.test(char);
}

/** About `length` characters around the first match, widened or narrowed to whole words. */
function windowAround(text: string, first: Range | undefined, length: number): Range {
  const focus = first ?? { start: 0, end: 0 };
  let start = Math.max(0, focus.start - Math.floor((length - (focus.end - focus.start)) / 2));
  let end = Math.min(text.length, start + length);
  start = Math.max(0, Math.min(start, end - length));
  while (start > 0 && start < focus.start && !isSpace(text[start - 1])) start++;
  while (end < text.length && end > focus.end && !isSpace(text[end])) end--;
  while (start < end && isSpace(text[start])) start++;
  while (end > start && isSpace(text[end - 1])) end--;
  return { start, end };
}

/** The whole text (a title) with its matching words marked. */
export function highlight(text: string, query: QueryWord[]): Segment[] {
  return segmentsOf(text, { start: 0, end: text.length }, [...matchRanges(text, query)]);
}

/** A snippet of about 100 characters (docs/product.md#search), cut around the first match, matches marked. */
export function snippet(text: string, query: QueryWord[], length: number = SEARCH_SNIPPET_LENGTH): Segment[] {
  const ranges = matchRanges(text, query);
  const first = ranges.next();
  const window = windowAround(text, first.done ? undefined : first.value, length);
  const matches = first.done ? [] : [first.value];
  // Past the window's end no match shows: the rest of the text is not looked at.
  for (const range of ranges) {
    if (range.start >= window.end) break;
    matches.push(range);
  }
  const segments = segmentsOf(text, window, matches);
  if (window.start > 0) segments.unshift({ text: ELLIPSIS, match: false });
  if (window.end < text.length) segments.push({ text: ELLIPSIS, match: false });
  return mergeNeighbours(segments);
}

function mergeNeighbours(segments: Segment[]): Segment[] {
  const merged: Segment[] = [];
  for (const segment of segments) {
    const last = merged.at(-1);
    if (last && last.match === segment.match) last.text += segment.text;
    else merged.push({ ...segment });
  }
  return merged;
}
