import { request } from "node:http";
import { brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";

/**
 * `js` and `css`: gzipped here, whatever the server sends; `jsServed`: the script bytes as the server sent them
 * under the request's Accept-Encoding; `scripts`: how many script files.
 */
export type PageWeight = { js: number; css: number; jsServed: number; scripts: number; files: string[] };

const IN_HTML = [/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g, /import\("(\/assets\/[^"]+\.js)"\)/g];
// Static imports between built chunks: `import{a as b}from"./client-X.js"` or `import"./x.js"`.
const STATIC_IMPORT = /(?:from|import)\s*"(\.\/[^"]+\.js)"/g;

/** A response's bytes as they came over the wire, and decoded; redirects followed. */
function getRaw(url: string, headers: Record<string, string>, redirects = 5): Promise<{ wire: Buffer; body: Buffer }> {
  return new Promise((resolve, reject) => {
    request(url, { headers }, (response) => {
      const location = response.headers.location;
      if (location && redirects > 0 && [301, 302, 303, 307, 308].includes(response.statusCode ?? 0)) {
        response.resume();
        return resolve(getRaw(new URL(location, url).href, headers, redirects - 1));
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.once("error", reject);
      response.once("end", () => {
        const wire = Buffer.concat(chunks);
        const encoding = response.headers["content-encoding"];
        const body = encoding === "br" ? brotliDecompressSync(wire) : encoding === "gzip" ? gunzipSync(wire) : wire;
        resolve({ wire, body });
      });
    })
      .once("error", reject)
      .end();
  });
}

/**
 * The JavaScript and CSS a page makes the browser fetch, in bytes: every asset its HTML names and every
 * chunk those import statically, each asked for with `headers`.
 */
export async function pageWeight(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<PageWeight> {
  const html = (await getRaw(`${baseUrl}${path}`, headers)).body.toString("utf8");
  const pending = IN_HTML.flatMap((pattern) => [...html.matchAll(pattern)].map((m) => m[1]!));
  const seen = new Set<string>();
  const weight: PageWeight = { js: 0, css: 0, jsServed: 0, scripts: 0, files: [] };
  while (pending.length > 0) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const { wire, body } = await getRaw(`${baseUrl}${file}`, headers);
    const size = gzipSync(body).length;
    if (file.endsWith(".css")) {
      weight.css += size;
      continue;
    }
    weight.js += size;
    weight.jsServed += wire.length;
    weight.scripts += 1;
    for (const [, relative] of body.toString("utf8").matchAll(STATIC_IMPORT)) pending.push(new URL(relative!, `http://x${file}`).pathname);
  }
  weight.files = [...seen].sort();
  return weight;
}
