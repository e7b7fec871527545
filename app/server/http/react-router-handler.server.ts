import type { Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import { createRequestHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { createReadableStreamFromReadable, writeReadableStreamToWritable } from "@react-router/node";
import { meteredBody } from "./body-limit.server";
import { requestOrigin } from "./methods.server";
import { renderedHtml } from "./rendered-page.server";

type Options = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  getLoadContext: (req: ExpressRequest, res: ExpressResponse) => RouterContextProvider | Promise<RouterContextProvider>;
};

/**
 * React Router behind Express: the request as a Fetch Request, its answer onto the Node response. A
 * rendered page's HTML is sent as it is (http/rendered-page); any other body is streamed.
 */
export function reactRouterHandler({ build, mode, getLoadContext }: Options): RequestHandler {
  const handle = createRequestHandler(build, mode);
  return async (req, res, next) => {
    try {
      const response = await handle(fetchRequestOf(req, res), await getLoadContext(req, res));
      await send(response, res);
    } catch (error) {
      next(error);
    }
  };
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
