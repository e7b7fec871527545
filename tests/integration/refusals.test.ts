/**
 * Refusals are answers: whatever the body, a refused request gets its whole 4xx response (never a
 * reset, a redirect from the JSON API, or a 500).
 */
import { Agent, request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import type { DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { multipartBody, sendWholeBody } from "../../harness/raw-http";
import type { TestServer } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let admin: string;
let reader: string;
let articleId: string;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  const site = server.site;
  admin = await signedInAs(db, site, { email: "editor@example.com", username: "محرر", role: "admin" });
  reader = await signedInAs(db, site, { email: "reader@example.com", username: "قارئ", role: "user" });
  articleId = (await createTestArticle(db, { title: "خبر", content: "نص", category: "local" })).id;
});
afterAll(() => stopServerAndDb({ server, db }));

const MANY_FIELDS_BOUNDARY = "----akhbar-fields";

/** A multipart body of `count` text fields (named as the article form's) filling about `size` bytes. */
function manyFields(count: number, size: number): Buffer {
  const names = ["title", "content", "category", "topics", "status"];
  const value = "ن".repeat(Math.max(1, Math.floor(size / count / 2) - 40));
  const parts = Array.from(
    { length: count },
    (_, i) =>
      `--${MANY_FIELDS_BOUNDARY}\r\nContent-Disposition: form-data; name="${names[i % names.length]}"\r\n\r\n${value}\r\n`,
  );
  return Buffer.from(`${parts.join("")}--${MANY_FIELDS_BOUNDARY}--\r\n`);
}

describe("a refused body still gets its whole answer", () => {
  const kinds = [
    { status: 404, method: "PUT", path: () => "/api/news/no-such-id", headers: () => ({ cookie: admin }) },
    {
      status: 403,
      method: "POST",
      path: () => "/api/news",
      headers: () => ({ cookie: admin, origin: "https://evil.example" }),
    },
    { status: 401, method: "POST", path: () => "/api/news", headers: () => ({}) },
    {
      status: 400,
      method: "POST",
      path: () => "/api/news",
      headers: () => ({ cookie: admin, "content-type": "text/plain" }),
    },
  ];
  // 12 MB is more than the kernel buffers on both ends: a server that closes without reading resets it.
  for (const size of [64 * 1024, 12 * 1024 * 1024]) {
    for (const kind of kinds) {
      it(`${kind.status} for ${kind.method} ${kind.path()} with ${size / 1024} KB`, async () => {
        const { body, contentType } = multipartBody(size);
        for (let i = 0; i < 3; i++) {
          const outcome = await sendWholeBody(`${server.url}${kind.path()}`, {
            method: kind.method,
            headers: { "content-type": contentType, ...kind.headers() },
            body,
          });
          expect(outcome).toMatchObject({ kind: "complete", status: kind.status });
        }
      });
    }
  }

  // Past the form's 60 fields, at sizes about the kernel's socket buffers: the refusal comes while the body is still arriving.
  for (const size of [16 * 1024, 85 * 1024, 120 * 1024, 210 * 1024, 1024 * 1024]) {
    it(`400 for 200 fields in ${size / 1024} KB`, async () => {
      const body = manyFields(200, size);
      for (let i = 0; i < 3; i++) {
        const outcome = await sendWholeBody(`${server.url}/api/news`, {
          method: "POST",
          headers: { cookie: admin, "content-type": `multipart/form-data; boundary=${MANY_FIELDS_BOUNDARY}` },
          body,
        });
        expect(outcome, `attempt ${i + 1}`).toMatchObject({ kind: "complete", status: 400 });
        if (outcome.kind === "complete")
          expect(JSON.parse(outcome.body)).toMatchObject({ error: { code: "validation" } });
      }
    });
  }

  it("400 for 200 fields in 120 KB, and the connection kept alive serves the next request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const send = (path: string, method: string, headers: Record<string, string>, body?: Buffer) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          `${server.url}${path}`,
          { method, agent, headers: body ? { ...headers, "content-length": String(body.length) } : headers },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.end(body);
      });
    try {
      expect(
        await send(
          "/api/news",
          "POST",
          { cookie: admin, "content-type": `multipart/form-data; boundary=${MANY_FIELDS_BOUNDARY}` },
          manyFields(200, 120 * 1024),
        ),
      ).toBe(400);
      expect(await send("/healthz", "GET", {})).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it("413 for a title larger than a field may be", async () => {
    const boundary = "----akhbar-413";
    const title = "ع".repeat(400_000);
    const body = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\n${title}\r\n--${boundary}--\r\n`,
    );
    const outcome = await sendWholeBody(`${server.url}/api/news`, {
      method: "POST",
      headers: { cookie: admin, "content-type": `multipart/form-data; boundary=${boundary}` },
      body,
    });
    expect(outcome).toMatchObject({ kind: "complete", status: 413 });
  });
});

describe("the JSON API refuses in JSON", () => {
  for (const [method, path] of [
    ["POST", "/api/news"],
    ["PUT", "/api/news/ARTICLE"],
    ["DELETE", "/api/news/ARTICLE"],
  ] as const) {
    it(`${method} ${path}: 401 signed out, 403 for a reader`, async () => {
      const url = `${server.url}${path.replace("ARTICLE", articleId)}`;
      const signedOut = await fetch(url, { method, redirect: "manual" });
      expect(signedOut.status).toBe(401);
      expect(await signedOut.json()).toEqual({ error: { code: "unauthorized", message: messages.signInRequired } });
      const forbidden = await fetch(url, { method, redirect: "manual", headers: { cookie: reader } });
      expect(forbidden.status).toBe(403);
      expect(await forbidden.json()).toEqual({ error: { code: "forbidden", message: messages.forbidden } });
    });
  }

  it("pages still send a signed-out visitor to sign in", async () => {
    const response = await fetch(`${server.url}/dashboard`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/autenction?redirectTo=%2Fdashboard");
  });
});

describe("bodies that are not forms, and methods we do not know", () => {
  const notForms: { name: string; type?: string; body?: string }[] = [
    {
      name: "JSON",
      type: "application/json",
      body: JSON.stringify({ intent: "signin", email: "a@b.c", password: "x" }),
    },
    { name: "text", type: "text/plain", body: "intent=signin" },
    { name: "empty, no type" },
    { name: "garbage multipart", type: "multipart/form-data; boundary=zz", body: "\u0000\u0001 not multipart" },
    { name: "multipart without boundary", type: "multipart/form-data", body: "--x\r\n" },
    { name: "XML", type: "application/xml", body: "<a/>" },
  ];
  for (const { name, type, body } of notForms) {
    it(`${name}: 400 with the Arabic message from /autenction and /news/:id/delete`, async () => {
      for (const [path, cookie] of [
        ["/autenction", ""],
        [`/news/${articleId}/delete`, admin],
      ] as const) {
        const response = await fetch(`${server.url}${path}`, {
          method: "POST",
          body,
          redirect: "manual",
          headers: { ...(type ? { "content-type": type } : {}), ...(cookie ? { cookie } : {}) },
        });
        expect(response.status, path).toBe(400);
        expect(await response.text(), path).toContain(messages.formMalformed);
      }
      expect(await db.selectFrom("news").select("id").where("id", "=", articleId).executeTakeFirst()).toBeDefined();
    });
  }

  for (const host of ["a b", "a%b", "exa<mple.com", "<script>"]) {
    it(`a Host no address can carry (${host}) gets 400 with the Arabic message, a page and the API alike`, async () => {
      for (const [path, expected] of [
        ["/local", messages.badRequest],
        ["/api/latest", JSON.stringify({ error: { code: "bad-request", message: messages.badRequest } })],
      ]) {
        const outcome = await sendWholeBody(`${server.url}${path}`, { method: "GET", headers: { host } });
        expect(outcome, path).toMatchObject({ kind: "complete", status: 400 });
        if (outcome.kind === "complete") expect(outcome.body, path).toBe(expected);
      }
    });
  }

  for (const method of ["TRACE", "PROPFIND", "MKCOL"]) {
    it(`${method} gets 405 with Allow`, async () => {
      const outcome = await sendWholeBody(`${server.url}/`, { method });
      expect(outcome).toMatchObject({ kind: "complete", status: 405 });
      if (outcome.kind === "complete") {
        expect(outcome.headers.allow).toContain("GET");
        expect(outcome.body).toBe(messages.methodNotAllowed);
      }
    });
  }
});
