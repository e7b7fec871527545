/**
 * Where a rendered page's bytes go: the regions a reader sees (head, header, ticker, sections of the
 * main column, sidebar, footer) and, across them, the kinds of markup that repeat (island props,
 * JSON-LD, inline SVG, class lists, srcset lists). Sizes are UTF-8 bytes of the HTML as sent.
 */

type Element = { tag: string; attrs: string; start: number; end: number; depth: number };

export type PagePart = { part: string; bytes: number };

const VOID = new Set([
  "area",
  "base",
  "br",
  "col",
  "embed",
  "hr",
  "img",
  "input",
  "link",
  "meta",
  "source",
  "track",
  "wbr",
]);
const TAG = /<(\/?)([a-zA-Z][\w-]*)([^>]*)>/g;
const RAW_TEXT = new Set(["script", "style"]);

/** Every element with its start and end offsets (React escapes `<` and `>` inside attributes). */
function elements(html: string): Element[] {
  const found: Element[] = [];
  const open: Element[] = [];
  TAG.lastIndex = 0;
  for (let match = TAG.exec(html); match; match = TAG.exec(html)) {
    const [whole, closing, name, attrs] = match;
    const tag = name!.toLowerCase();
    if (closing) {
      const at = open.map((e) => e.tag).lastIndexOf(tag);
      if (at === -1) continue;
      for (const element of open.splice(at)) element.end = match.index + whole.length;
      continue;
    }
    const element: Element = {
      tag,
      attrs: attrs!,
      start: match.index,
      end: match.index + whole.length,
      depth: open.length,
    };
    found.push(element);
    if (VOID.has(tag) || attrs!.endsWith("/")) continue;
    if (RAW_TEXT.has(tag)) {
      const close = html.indexOf(`</${tag}>`, TAG.lastIndex);
      element.end = close === -1 ? html.length : close + tag.length + 3;
      TAG.lastIndex = element.end;
      continue;
    }
    open.push(element);
  }
  return found;
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

function outermost(all: Element[], test: (e: Element) => boolean): Element[] {
  const chosen: Element[] = [];
  for (const element of all)
    if (test(element) && !chosen.some((c) => c.start <= element.start && element.end <= c.end)) chosen.push(element);
  return chosen;
}

const has = (attrs: string, pattern: RegExp) => pattern.test(attrs);

/** The regions of a reader page, each counted once (nested regions are taken out of their parent). */
const REGIONS: [string, (e: Element) => boolean][] = [
  ["head: JSON-LD", (e) => e.tag === "script" && has(e.attrs, /application\/ld\+json/)],
  ["head: meta tags", (e) => e.tag === "meta" || e.tag === "title"],
  ["head: links (css, preloads, icons)", (e) => e.tag === "link"],
  ["header: mobile menu", (e) => e.tag === "details" && has(e.attrs, /nav:hidden/)],
  ["header: desktop nav", (e) => e.tag === "nav" && has(e.attrs, /nav:block/)],
  ["header: logo, search, account", (e) => e.tag === "header" && has(e.attrs, /bg-brand-600/)],
  ["breaking ticker", (e) => e.tag === "ak-island" && has(e.attrs, /data-name="breaking-ticker"/)],
  ["slider", (e) => e.tag === "ak-island" && has(e.attrs, /data-name="slider"/)],
  ["sidebar: latest", (e) => e.tag === "section" && has(e.attrs, /data-testid="latest-news"/)],
  ["sidebar: most read", (e) => e.tag === "section" && has(e.attrs, /data-testid="most-read"/)],
  ["related", (e) => e.tag === "section" && has(e.attrs, /related-heading/)],
  ["picks", (e) => e.tag === "section" && has(e.attrs, /picks-heading/)],
  ["category list", (e) => e.tag === "ak-island" && has(e.attrs, /data-name="category-list"/)],
  ["home sections", (e) => e.tag === "section" && has(e.attrs, /data-testid="section-/)],
  ["article header (share, meta)", (e) => e.tag === "header" && e.depth > 2 && !has(e.attrs, /bg-brand-600/)],
  ["article images", (e) => e.tag === "div" && has(e.attrs, /mt-6 space-y-4"/)],
  ["article text", (e) => e.tag === "div" && has(e.attrs, /data-testid="article-content"/)],
  ["footer", (e) => e.tag === "footer"],
  ["scripts", (e) => e.tag === "script" && !has(e.attrs, /ld\+json/)],
];

/** Kinds of markup counted across regions (they overlap the regions and each other). */
const KINDS: [string, RegExp][] = [
  ["island props (data-props)", / data-props="[^"]*"/g],
  ["class attributes", / class="[^"]*"/g],
  ["srcset + sizes", / (?:srcSet|srcset|sizes)="[^"]*"/g],
  ["inline SVG", /<svg[\s\S]*?<\/svg>/g],
  ["JSON-LD", /<script type="application\/ld\+json"[\s\S]*?<\/script>/g],
];

export function pageParts(html: string): { regions: PagePart[]; kinds: PagePart[]; total: number } {
  const all = elements(html);
  const taken: { start: number; end: number }[] = [];
  const measured: { part: string; spans: Element[] }[] = [];
  for (const [part, test] of REGIONS) {
    const spans = outermost(all, (e) => test(e) && !taken.some((t) => t.start <= e.start && e.end <= t.end));
    measured.push({ part, spans });
    taken.push(...spans);
  }
  // A region's own bytes: its span less the regions named before it that sit inside it.
  const regions = measured.map(({ part, spans }) => ({
    part,
    bytes: spans.reduce((sum, span) => {
      const inner = taken.filter(
        (t) => t !== span && span.start <= t.start && t.end <= span.end && !spans.includes(t as Element),
      );
      return (
        sum + bytes(html.slice(span.start, span.end)) - inner.reduce((s, t) => s + bytes(html.slice(t.start, t.end)), 0)
      );
    }, 0),
  }));
  const total = bytes(html);
  const counted = regions.reduce((sum, r) => sum + r.bytes, 0);
  regions.push({ part: "everything else (main column, wrappers)", bytes: total - counted });
  const kinds = KINDS.map(([part, pattern]) => ({
    part,
    bytes: [...html.matchAll(pattern)].reduce((sum, m) => sum + bytes(m[0]), 0),
  }));
  return { regions: regions.filter((r) => r.bytes > 0), kinds, total };
}

/** The breakdown of pages side by side, in KB, for a person to read. */
export function partsTable(pages: [string, string][]): string {
  const parsed = pages.map(([name, html]) => ({ name, ...pageParts(html) }));
  const names = [...new Set(parsed.flatMap((p) => [...p.regions, ...p.kinds].map((r) => r.part)))];
  const kb = (n: number | undefined) => (n === undefined ? "-" : (n / 1024).toFixed(1)).padStart(9);
  const kindNames = new Set(parsed.flatMap((p) => p.kinds.map((k) => k.part)));
  const row = (label: string, values: (number | undefined)[]) => `${label.padEnd(42)}${values.map(kb).join("")}`;
  const lines = [`${"KB, uncompressed".padEnd(42)}${parsed.map((p) => p.name.padStart(9)).join("")}`];
  for (const name of names.filter((n) => !kindNames.has(n)))
    lines.push(
      row(
        name,
        parsed.map((p) => p.regions.find((r) => r.part === name)?.bytes),
      ),
    );
  lines.push(
    row(
      "total",
      parsed.map((p) => p.total),
    ),
  );
  lines.push("across regions:");
  for (const name of kindNames)
    lines.push(
      row(
        `  ${name}`,
        parsed.map((p) => p.kinds.find((k) => k.part === name)?.bytes),
      ),
    );
  return lines.join("\n");
}
