import { Writable } from "node:stream";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import { ServerRouter, type EntryContext, type RouterContextProvider } from "react-router";
import { hydratesWholeDocument, islandsLoader } from "./islands/island-scripts";
import { PrerenderedProvider, type Prerendered } from "./components/prerendered";
import { shellRegions } from "~/server/http/shell-regions.server";
import { renderedPage } from "~/server/http/rendered-page.server";
import { BoundedCache } from "~/lib/bounded-cache";
import type { SiteFrame } from "~/lib/site-settings";
import { cspNonceContext } from "~/server/site/request-context.server";
import { runServer as runSite } from "~/server/site/run.server";
import type { Served } from "~/server/site/http-app.server";

/** The constant inline scripts of our pages, which the Content-Security-Policy allows by their hash. */
const inlineScripts = islandsLoader ? [islandsLoader] : [];

/** server.ts hands the bundle over through this export: from here on, the site runs from the bundle. */
export function runServer(served: Served): Promise<void> {
  return runSite(served, inlineScripts);
}
export type BundleEntry = { runServer: typeof runServer };

export const streamTimeout = 5_000;

/**
 * Only pages that hydrate whole carry the response's nonce (on React Router's scripts); reader pages
 * never do, so a copy in the page cache holds no nonce to go stale (docs/decisions/008).
 */
function wholeDocument(routerContext: EntryContext): boolean {
  return hydratesWholeDocument(
    routerContext.staticHandlerContext.matches.map((match) => routerContext.routeModules[match.route.id]?.handle),
  );
}

/**
 * The shell's regions rendered once (docs/decisions/020), for pages that hydrate in islands and
 * readers who are not signed in: what the browser never hydrates and nobody's own state is in.
 */
function prerenderedRegions(
  request: Request,
  routerContext: EntryContext,
  whole: boolean,
): Promise<Prerendered | null> {
  const root = routerContext.staticHandlerContext.loaderData.root as { user?: unknown; site?: SiteFrame } | undefined;
  if (whole || !root?.site || root.user) return Promise.resolve(null);
  return shellRegions(root.site, new URL(request.url).pathname);
}

type Manifest = EntryContext["manifest"];
/** A narrowed manifest per set of routes a page matched: the route table makes a few dozen. */
const NARROWED_PER_BUILD = 128;
const manifestsByMatches = new WeakMap<Manifest, BoundedCache<string, Manifest>>();

/**
 * For pages that hydrate in islands (docs/decisions/029): the route manifest narrowed to the routes the
 * request matched, for `ServerRouter`, which builds its routes from the whole manifest on every render,
 * and no stream of the loader data, which only a page that hydrates whole sends. Read through the
 * prototype, so React Router's lazy encoding of that stream (patches/) never runs.
 */
function forIslands(routerContext: EntryContext): EntryContext {
  const { manifest } = routerContext;
  const ids = routerContext.staticHandlerContext.matches.map((match) => match.route.id);
  let byMatches = manifestsByMatches.get(manifest);
  if (!byMatches) manifestsByMatches.set(manifest, (byMatches = new BoundedCache({ maxEntries: NARROWED_PER_BUILD })));
  const narrowed = byMatches.get(ids.join("\0"), () => ({
    ...manifest,
    routes: Object.fromEntries(ids.map((id) => [id, manifest.routes[id]])),
  }));
  return Object.create(routerContext, {
    manifest: { value: narrowed },
    serverHandoffStream: { value: undefined },
  }) as EntryContext;
}

/**
 * Every page goes out whole, so it is rendered whole (docs/decisions/027, 028): a page that hydrates in
 * islands (no Suspense boundary, its data all loaded) by `renderToString`; a page that hydrates whole
 * (a lazy editor, React Router's streamed loader data) through React's stream, gathered once ready.
 */
export default async function handleRequest(
  request: Request,
  status: number,
  headers: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  headers.set("Content-Type", "text/html; charset=utf-8");
  if (request.method.toUpperCase() === "HEAD") return new Response(null, { status, headers });
  const whole = wholeDocument(routerContext);
  const nonce = whole ? loadContext.get(cspNonceContext) : undefined;
  const prerendered = await prerenderedRegions(request, routerContext, whole);
  const page = (
    <PrerenderedProvider value={prerendered}>
      <ServerRouter context={whole ? routerContext : forIslands(routerContext)} url={request.url} nonce={nonce} />
    </PrerenderedProvider>
  );
  // React's stream writes the doctype itself before an <html> root; renderToString does not.
  if (!whole) return renderedPage(`<!DOCTYPE html>${renderToString(page)}`, { status, headers });
  return new Promise<Response>((resolve, reject) => {
    let responseStatus = status;
    const chunks: Buffer[] = [];
    const gathered = new Writable({
      write(chunk: Buffer, _encoding, done) {
        chunks.push(chunk);
        done();
      },
      final(done) {
        resolve(renderedPage(Buffer.concat(chunks), { status: responseStatus, headers }));
        done();
      },
    });
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      onAllReady() {
        pipe(gathered);
      },
      onShellError: reject,
      onError(error: unknown) {
        responseStatus = 500;
        console.error(error);
      },
    });
    setTimeout(abort, streamTimeout + 1_000).unref();
  });
}
