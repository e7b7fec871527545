import { XMLParser, XMLValidator } from "fast-xml-parser";
import { expect } from "vitest";

/** Fails the test unless the text is well-formed XML; returns it parsed, attributes as "@_name" (its shape is the test's to check). */
/* eslint-disable @typescript-eslint/no-explicit-any */
export function parseXml(text: string): Record<string, any> {
  expect(XMLValidator.validate(text)).toBe(true);
  return new XMLParser({ ignoreAttributes: false, parseTagValue: false }).parse(text) as Record<string, any>;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The parser gives one child as an object and several as an array; this always gives an array. */
export function list<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

export const W3C_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
export const RFC_822_DATE =
  /^(Mon|Tue|Wed|Thu|Fri|Sat|Sun), \d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} (\+0000|GMT)$/;

export const SITEMAP_NAMESPACE = "http://www.sitemaps.org/schemas/sitemap/0.9";
export const NEWS_NAMESPACE = "http://www.google.com/schemas/sitemap-news/0.9";
export const ATOM_NAMESPACE = "http://www.w3.org/2005/Atom";

/** A title that tries everything XML can choke on, and what a reader should see of it. */
export const HOSTILE_TITLE = `عاجل: Tom & Jerry <script>alert("x")</script> ]]> 'q' &amp; \u0001\u0008\u000B\u001F\u007F\u0085\uFFFE نهاية`;
export const HOSTILE_TITLE_AS_READ = `عاجل: Tom & Jerry <script>alert("x")</script> ]]> 'q' &amp;  نهاية`;
