import { createServer, request, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export type RewritingProxy = {
  url: string;
  /** From now on, `path` is answered with its text as the site serves it, changed by `change`. */
  rewrite: (path: string, change: (text: string) => string) => void;
  stop: () => Promise<void>;
};

/**
 * A reverse proxy on 127.0.0.1 in front of `target` (a site's origin), for a test to change what one
 * address serves, as a deploy would, where the browser's own fetches (a service worker's update check)
 * are out of DevTools' reach. Requests go through with the site's own Host; a rewritten address is
 * fetched whole, uncompressed and unconditional, so the browser always compares the changed text.
 */
export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const upstream = new URL(target);
  const changes = new Map<string, (text: string) => string>();
  const server = createServer((incoming, outgoing) => {
    const change = changes.get(new URL(incoming.url ?? "/", target).pathname);
    const headers: IncomingHttpHeaders = { ...incoming.headers, host: upstream.host };
    if (change) for (const name of ["accept-encoding", "if-none-match", "if-modified-since"]) delete headers[name];
    const forwarded = request(
      { host: upstream.hostname, port: upstream.port, path: incoming.url, method: incoming.method, headers },
      (answer) => {
        if (!change) {
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          return void answer.pipe(outgoing);
        }
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const body = Buffer.from(change(Buffer.concat(chunks).toString("utf8")));
          const { etag: _etag, "last-modified": _modified, ...kept } = answer.headers;
          outgoing.writeHead(answer.statusCode ?? 502, { ...kept, "content-length": String(body.length) }).end(body);
        });
      },
    );
    forwarded.on("error", () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    rewrite: (path, change) => void changes.set(path, change),
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
