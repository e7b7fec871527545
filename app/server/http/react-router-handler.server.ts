import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import {
  createRequestHandler,
  matchRoutes,
  type RouteObject,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { meteredBody } from "./body-limit.server";
import { requestOrigin } from "./methods.server";
import { forwardedElsewhere, refuseForwardedWrite } from "./origin.server";
import { renderedHtml } from "./rendered-page.server";

type Options = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider | Promise<RouterContextProvider>;
  /** Where the refusal page of a write forwarded elsewhere leads home. */
  siteOrigin: string;
};

/**
 * React Router behind Express: the request as a Fetch Request, its answer onto the Node response. A
 * rendered page's HTML is sent as it is (http/rendered-page); any other body is streamed.
 */
export function reactRouterHandler({ build, mode, getLoadContext, siteOrigin }: Options): RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      if (
        forwardedElsewhere(req.method, req.get("origin"), requestOrigin(req)) &&
        checksWriteOrigin(typeof build === "function" ? await build() : build, req.path)
      ) {
        return refuseForwardedWrite(req, res, siteOrigin);
      }
      const response = await handle(fetchRequestOf(req, res), await getLoadContext(req, res));
      await send(response, res);
    } catch (error) {
      next(error);
    }
  };
}

const routeTrees = new WeakMap<ServerBuild["routes"], RouteObject[]>();

/** The build's flat route manifest as the nested routes matchRoutes takes. */
function routeTreeOf(routes: ServerBuild["routes"], parentId?: string): RouteObject[] {
  return Object.values(routes).flatMap((route): RouteObject[] => {
    if (!route || route.parentId !== parentId) return [];
    const { id, path, caseSensitive } = route;
    return [
      route.index
        ? { id, path, caseSensitive, index: true }
        : { id, path, caseSensitive, children: routeTreeOf(routes, id) },
    ];
  });
}

/**
 * Whether React Router would refuse a write to `pathname` whose Origin is not its host with a bare
 * "Bad Request": a page's action, as its request handler decides (a route with a component or an error
 * boundary). Resource routes it never checks; its data requests it refuses in its own encoding, which the
 * error boundary shows in Arabic.
 */
function checksWriteOrigin(build: ServerBuild, pathname: string): boolean {
  if (pathname.endsWith(".data")) return false;
  let tree = routeTrees.get(build.routes);
  if (!tree) routeTrees.set(build.routes, (tree = routeTreeOf(build.routes)));
  const leaf = matchRoutes(tree, pathname, build.basename)?.at(-1)?.route;
  const module = leaf?.id === undefined ? undefined : build.routes[leaf.id]?.module;
  return !module || module.default != null || module.ErrorBoundary != null;
}

function fetchRequestOf(req: ExpressRequest, res: ExpressResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const each of value) headers.append(name, each);
    else if (value) headers.set(name, value);
  }
  // A client that leaves before its answer is complete aborts the request (the live list stops with it).
  const controller = new AbortController();
  res.once("close", () => res.writableFinished || controller.abort());
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers, signal: controller.signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    // Counted as it arrives: a reader that takes more than a short form says so (bodyWithin).
    init.body = meteredBody(createReadableStreamFromReadable(req));
    init.duplex = "half";
  }
  return new Request(`${requestOrigin(req)}${req.originalUrl}`, init);
}

const closed = (res: ExpressResponse) => res.destroyed || res.writableEnded;

async function send(response: Response, res: ExpressResponse): Promise<void> {
  if (closed(res)) return void (await response.body?.cancel());
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [name, value] of response.headers) res.append(name, value);
  const html = renderedHtml(response);
  if (html !== undefined) return void res.end(html);
  if (!response.body) return void res.end();
  if (/text\/event-stream/i.test(response.headers.get("content-type") ?? "")) res.flushHeaders();
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (!closed(res)) throw error;
  }
}
