import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "~/lib/error-body";
import { messages } from "~/lib/messages";
import { authErrors } from "~/lib/newsroom-messages";
import { openDatabase, type DB } from "~/server/db/db.server";
import { createTestAccount, TEST_PASSWORD } from "../../harness/accounts";
import { post } from "../../harness/http-client";
import { startTestServer, type TestServer } from "../../harness/test-server";

/** BASE_URL unset and TRUST_PROXY unset: the defaults of `npm start`. */
let server: TestServer;
let db: DB;
/** Behind a trusted proxy on the same machine: X-Forwarded-For names the client. */
let proxied: TestServer;
let proxiedDb: DB;

beforeAll(async () => {
  [server, proxied] = await Promise.all([
    startTestServer({ BASE_URL: "" }),
    startTestServer({ TRUST_PROXY: "loopback" }),
  ]);
  db = openDatabase(server.env.DATABASE_URL);
  proxiedDb = openDatabase(proxied.env.DATABASE_URL);
});
afterAll(async () => {
  await Promise.all([db.destroy(), proxiedDb.destroy()]);
  await Promise.all([server.stop(), proxied.stop()]);
});

const port = () => new URL(server.url).port;
let forged = 0;
/** A different made-up client address each call. */
const forgedAddress = () => `10.9.${(++forged >> 8) & 255}.${forged & 255}`;

async function account(target: DB, email: string): Promise<void> {
  await createTestAccount(
    target,
    { baseUrl: "http://localhost", authSecret: server.env.AUTH_SECRET },
    { email, username: "موظف", role: "user" },
  );
}
/** Every sign-up and sign-in hashes a password (scrypt, as the site does): dozens of them take long on a busy machine. */
const HASHING = { timeout: 180_000 };
const signInForm = (email: string, password: string, headers: Record<string, string> = {}) =>
  post(`${server.url}/autenction`, { intent: "signin", email, password, redirectTo: "/" }, undefined, headers);

describe("sign-in limits", HASHING, () => {
  it("count wrong passwords per account and address; a forged X-Forwarded-For gets no fresh count", async () => {
    await account(db, "sara@example.com");
    for (let i = 0; i < 10; i++) {
      const response = await signInForm("sara@example.com", "wrongpass", { "x-forwarded-for": forgedAddress() });
      expect(response.status, `attempt ${i + 1}`).toBe(400);
    }
    const locked = await signInForm("sara@example.com", "wrongpass", { "x-forwarded-for": forgedAddress() });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await locked.text()).toContain(authErrors["too-many-requests"].catalogue);

    const rightPassword = await signInForm("sara@example.com", TEST_PASSWORD);
    expect(rightPassword.status).toBe(429);
    expect(await rightPassword.text()).toContain(authErrors["too-many-requests"].arabic);
  });

  it("never count successful sign-ins", async () => {
    await account(db, "rami@example.com");
    for (let i = 0; i < 25; i++)
      expect((await signInForm("rami@example.com", TEST_PASSWORD)).status, `sign-in ${i + 1}`).toBe(302);
  });

  it("let a whole office behind one address mistype and then sign in", async () => {
    const staff = Array.from({ length: 15 }, (_, i) => `office${i}@example.com`);
    for (const email of staff) await account(db, email);
    for (const email of staff) {
      expect((await signInForm(email, "wrongpass")).status, email).toBe(400);
      expect((await signInForm(email, TEST_PASSWORD)).status, email).toBe(302);
    }
  });
});

describe("registration limit", HASHING, () => {
  it("lets a school register 30 accounts from one address, then says so honestly", async () => {
    const school = { "x-forwarded-for": "198.51.100.30" };
    for (let i = 0; i < 30; i++) {
      const response = await post(
        `${proxied.url}/autenction`,
        { intent: "signup", username: "طالب", email: `school${i}@example.com`, password: TEST_PASSWORD },
        undefined,
        school,
      );
      expect(response.status, `account ${i + 1}`).toBe(302);
    }
    const refused = await post(
      `${proxied.url}/autenction`,
      { intent: "signup", username: "طالب", email: "school30@example.com", password: TEST_PASSWORD },
      undefined,
      school,
    );
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(authErrors["too-many-sign-ups"].arabic);
    const neighbour = await post(
      `${proxied.url}/autenction`,
      { intent: "signup", username: "جار", email: "neighbour@example.com", password: TEST_PASSWORD },
      undefined,
      { "x-forwarded-for": "198.51.100.31" },
    );
    expect(neighbour.status).toBe(302);
  });
});

describe("origin check without BASE_URL", () => {
  /** A POST as a browser sends it from a page opened at http://<host>:<port>: fetch cannot set Host. */
  function postFrom(host: string, path: string, fields: Record<string, string>): Promise<number> {
    const body = new URLSearchParams(fields).toString();
    const headers = {
      host: `${host}:${port()}`,
      origin: `http://${host}:${port()}`,
      "content-type": "application/x-www-form-urlencoded",
      "content-length": Buffer.byteLength(body),
    };
    return new Promise((resolve, reject) => {
      const req = request(`${server.url}${path}`, { method: "POST", headers }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  it("accepts the loopback spellings of the default address", async () => {
    await account(db, "loopback@example.com");
    // [::1] passes our check too (origin.server.test.ts), but React Router's Express adapter drops the
    // port of an IPv6 Host header and then refuses the action itself.
    for (const host of ["localhost", "127.0.0.1"]) {
      expect(
        await postFrom(host, "/autenction", {
          intent: "signin",
          email: "loopback@example.com",
          password: TEST_PASSWORD,
        }),
        host,
      ).toBe(302);
      expect(await postFrom(host, "/api/site-visit", { reader: "loopback-reader-0001" }), host).toBe(200);
    }
  });

  it("says why a cross-site request was refused: a page for a form, JSON for the API", async () => {
    const siteAddress = `http://localhost:${port()}`;
    const page = await signInForm("loopback@example.com", TEST_PASSWORD, { origin: "http://192.168.1.20:3000" });
    expect(page.status).toBe(403);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).toContain(`<title>${messages.crossSiteTitle}`);
    expect(html).toContain(siteAddress);
    expect(html).toContain("http://192.168.1.20:3000");

    const api = await fetch(`${server.url}/api/site-visit`, {
      method: "POST",
      headers: { origin: "https://evil.example" },
    });
    expect(api.status).toBe(403);
    const { error } = (await api.json()) as ErrorBody;
    expect(error.code).toBe("forbidden");
    expect(error.message).toContain(messages.crossSiteRequest);
    expect(error.message).toContain(siteAddress);
    expect(error.message).toContain("https://evil.example");
  });
});
