/**
 * Odd but valid request lines are served, or refused with a 400, never a 500; and no error of any
 * kind is ever cacheable, whoever answers it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { sendRawHead, sendWholeBody, type RawOutcome } from "../../harness/raw-http";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let reader: string;
let host: string;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  reader = await signedInAs(db, server.site, { email: "reader@example.com", username: "قارئ", role: "user" });
  host = new URL(server.url).host;
});
afterAll(() => stopServerAndDb({ server, db }));

describe("request lines", () => {
  it("serves an absolute-form target as its path, at the host it names", async () => {
    for (const target of [`http://${host}/who`, `http://${host}/who?x=1`, `HTTP://${host.toUpperCase()}/who`]) {
      const response = await sendRawHead(
        server.url,
        `GET ${target} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      );
      expect(response.status, target).toBe(200);
      expect(response.body, target).toContain("<html");
    }
  });

  it("serves HTTP/1.0 without Host, as for the site's own address", async () => {
    for (const path of ["/", "/who", "/api/latest"]) {
      const response = await sendRawHead(server.url, `GET ${path} HTTP/1.0\r\n\r\n`);
      expect(response.status, path).toBe(200);
    }
  });

  it("refuses a target that names no path with 400 and the Arabic message", async () => {
    for (const head of [
      `OPTIONS * HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
      `GET ftp://${host}/who HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`,
    ]) {
      const response = await sendRawHead(server.url, head);
      expect(response.status, head).toBe(400);
      expect(response.body, head).toBe(messages.badRequest);
      expect(response.headers["cache-control"], head).toBe("no-store");
    }
  });
});

describe("no error is cacheable", () => {
  const errors: { name: string; status: number; send: () => Promise<RawOutcome> }[] = [
    {
      name: "a page that does not exist",
      status: 404,
      send: () => sendWholeBody(`${server.url}/no/such/page`, { method: "GET" }),
    },
    {
      name: "a short link that does not exist",
      status: 404,
      send: () => sendWholeBody(`${server.url}/999999`, { method: "GET" }),
    },
    {
      name: "a missing media file",
      status: 404,
      send: () => sendWholeBody(`${server.url}/media/news-images/none.webp`, { method: "GET" }),
    },
    { name: "a NUL in the path", status: 404, send: () => sendWholeBody(`${server.url}/a%00b`, { method: "GET" }) },
    {
      name: "a reader on the dashboard",
      status: 403,
      send: () => sendWholeBody(`${server.url}/dashboard`, { method: "GET", headers: { cookie: reader } }),
    },
    {
      name: "a cross-site form",
      status: 403,
      send: () =>
        sendWholeBody(`${server.url}/autenction`, { method: "POST", headers: { origin: "https://evil.example" } }),
    },
    {
      name: "the API signed out",
      status: 401,
      send: () => sendWholeBody(`${server.url}/api/news`, { method: "POST" }),
    },
    {
      name: "a form that is not one",
      status: 400,
      send: () =>
        sendWholeBody(`${server.url}/reset-password`, {
          method: "POST",
          headers: { "content-type": "text/plain" },
          body: Buffer.from("x"),
        }),
    },
    {
      name: "a Host no address can carry",
      status: 400,
      send: () => sendWholeBody(`${server.url}/who`, { method: "GET", headers: { host: "a b" } }),
    },
    { name: "TRACE", status: 405, send: () => sendWholeBody(`${server.url}/`, { method: "TRACE" }) },
  ];
  for (const error of errors) {
    it(`${error.name}: ${error.status}, no-store`, async () => {
      expect(await error.send()).toMatchObject({
        kind: "complete",
        status: error.status,
        headers: expect.objectContaining({ "cache-control": "no-store" }),
      });
    });
  }
});
