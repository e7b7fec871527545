import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext } from "react-router";

// The HTTP layer (server.ts) reaches the bundle's one page cache through this export.
export { pageCache } from "./server/site-page-cache.server";
export { shutdownHooks } from "./server/shutdown.server";

export const streamTimeout = 5_000;

export default function handleRequest(request: Request, status: number, headers: Headers, routerContext: EntryContext) {
  if (request.method.toUpperCase() === "HEAD") return new Response(null, { status, headers });
  const waitForAll = isbot(request.headers.get("user-agent") ?? "") || routerContext.isSpaMode;
  return new Promise<Response>((resolve, reject) => {
    let responseStatus = status;
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      [waitForAll ? "onAllReady" : "onShellReady"]() {
        const body = new PassThrough();
        headers.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(createReadableStreamFromReadable(body), { status: responseStatus, headers }));
        pipe(body);
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
