/**
 * Every body reader counts the bytes as they arrive, whatever the headers say: 400 MB sent chunked
 * (no Content-Length) to each route that reads a body gets a 413 and a closed connection, and the
 * server's memory stays flat.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { createTestArticle } from "../../harness/articles";
import { sendStreamedBody } from "../../harness/raw-http";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

const MB = 1024 * 1024;
const BODY_BYTES = 400 * MB;
const BOUNDARY = "----akhbar-body-limit";

let server: TestServer;
let db: DB;
let admin: string;

const anArticle = async () =>
  (await createTestArticle(db, { title: "خبر", content: "نص", category: "local", status: "published" })).id;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  admin = await signedInAs(db, server.site, { email: "admin@example.com", username: "مدير", role: "admin" });
});
afterAll(() => stopServerAndDb({ server, db }));

/** Resident memory of the server process now, in bytes. */
function residentMemory(): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"))?.[1] ?? 0) * 1024;
}

/** A multipart body whose one file part (named `field`) fills it. */
function multipartEnds(field: string) {
  return {
    head: Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  };
}

// Each route that reads a body, with the file input its reader takes (any name for small forms).
// An article of its own for each request: a small body may act on it (the delete form trashes it).
const routes: { method?: string; path: (articleId: string) => string; field: string; signedIn: boolean }[] = [
  { path: () => "/autenction", field: "email", signedIn: false },
  { path: () => "/reset-password", field: "token", signedIn: false },
  { path: (id) => `/news/${id}/delete`, field: "confirm", signedIn: true },
  { path: (id) => `/edit-news/${id}/send-back`, field: "note", signedIn: true },
  { path: (id) => `/edit-news/${id}/revisions/1`, field: "intent", signedIn: true },
  { path: () => "/dashboard/trash", field: "id", signedIn: true },
  { path: () => "/dashboard/users", field: "intent", signedIn: true },
  // Its author-page form is multipart: a photo past 15 MB (an unknown file field is a 400 at once).
  { path: () => "/dashboard/account", field: "photo", signedIn: true },
  { path: () => "/dashboard/preview", field: "content", signedIn: true },
  { path: () => "/api/news/autosave", field: "content", signedIn: true },
  { path: () => "/dashboard", field: "images", signedIn: true },
  { path: () => "/api/news", field: "images", signedIn: true },
  { method: "PUT", path: (id) => `/api/news/${id}`, field: "images", signedIn: true },
  { path: (id) => `/edit-news/${id}`, field: "images", signedIn: true },
  { path: () => "/dashboard/settings", field: "logo", signedIn: true },
  { path: () => "/api/media/images", field: "image", signedIn: true },
];

describe("a body past its route's limit, sent chunked", () => {
  it(
    "gets 413 and a closed connection from every route that reads a body, memory flat",
    { timeout: 300_000 },
    async () => {
      const send = async (route: (typeof routes)[number], totalBytes: number) =>
        sendStreamedBody(`${server.url}${route.path(await anArticle())}`, {
          method: route.method ?? "POST",
          headers: {
            "content-type": `multipart/form-data; boundary=${BOUNDARY}`,
            ...(route.signedIn ? { cookie: admin } : {}),
          },
          ...multipartEnds(route.field),
          totalBytes,
        });
      // Every route's code loaded and run once on a large body, so what follows measures memory that stays.
      for (const route of routes) await send(route, BODY_BYTES);
      const before = residentMemory();
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, residentMemory())), 20);
      try {
        for (const route of routes) {
          const outcome = await send(route, BODY_BYTES);
          const path = route.path(":id");
          expect({ path, status: outcome.status, closed: outcome.connectionClosed }).toEqual({
            path,
            status: 413,
            closed: true,
          });
          expect(outcome.headers["cache-control"], path).toBe("no-store");
          expect(outcome.bytesSent, path).toBeLessThan(BODY_BYTES);
        }
      } finally {
        clearInterval(sampler);
      }
      expect((peak - before) / MB, "MB the server grew by").toBeLessThan(30);
    },
  );

  it("says so in Arabic, as a page and in JSON", async () => {
    for (const [path, cookie] of [
      ["/autenction", ""],
      ["/api/news", admin],
    ] as const) {
      const outcome = await sendStreamedBody(`${server.url}${path}`, {
        headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}`, ...(cookie ? { cookie } : {}) },
        ...multipartEnds("images"),
        totalBytes: 20 * MB,
      });
      expect(outcome.status, path).toBe(413);
      expect(outcome.body, path).toMatch(new RegExp(`${messages.formMalformed}|${newsroomMessages.imageTooLarge}`));
    }
  });
});
