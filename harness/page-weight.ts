import { gzipSync } from "node:zlib";

export type PageWeight = { js: number; css: number; files: string[] };

const IN_HTML = [/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g, /import\("(\/assets\/[^"]+\.js)"\)/g];
// Static imports between built chunks: `import{a as b}from"./client-X.js"` or `import"./x.js"`.
const STATIC_IMPORT = /(?:from|import)\s*"(\.\/[^"]+\.js)"/g;

/**
 * The JavaScript and CSS a page makes the browser fetch, gzipped, in bytes: every asset its HTML
 * names and every chunk those import statically.
 */
export async function pageWeight(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<PageWeight> {
  const html = await (await fetch(`${baseUrl}${path}`, { headers })).text();
  const pending = IN_HTML.flatMap((pattern) => [...html.matchAll(pattern)].map((m) => m[1]!));
  const seen = new Set<string>();
  const weight: PageWeight = { js: 0, css: 0, files: [] };
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const body = Buffer.from(await (await fetch(`${baseUrl}${file}`)).arrayBuffer());
    const size = gzipSync(body).length;
    if (file.endsWith(".css")) {
      weight.css += size;
      continue;
    }
    weight.js += size;
    for (const [, relative] of body.toString("utf8").matchAll(STATIC_IMPORT)) pending.push(new URL(relative!, `http://x${file}`).pathname);
  }
  weight.files = [...seen].sort();
  return weight;
}
