import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { authErrors, newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { cookiesFrom, get, post, signIn, signUp } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { LEAVING, STAYING } from "../support/redirect-targets";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
});
afterAll(() => stopServerAndDb({ server, db }));

const userCount = async () =>
  Number(
    (
      await db
        .selectFrom("user")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const roleOf = async (email: string) =>
  (await db.selectFrom("user").select("role").where("email", "=", email).executeTakeFirst())?.role;

describe("registration", () => {
  it("creates a user (never an admin, even with a forged role) and signs them in", async () => {
    const response = await signUp(server.url, "سامر", "samer@example.com", "secret123", { role: "admin" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    const setCookie = response.headers.getSetCookie().join("\n");
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(await roleOf("samer@example.com")).toBe("user");
    const home = await get(`${server.url}/`, { cookie: cookiesFrom(response) });
    expect(await home.text()).toContain(messages.signOut);
  });

  it("answers each bad input with a 400 and its message, creating nothing", async () => {
    const before = await userCount();
    const cases: [Record<string, string>, string][] = [
      [{ username: "", email: "a@example.com", password: "secret123" }, newsroomMessages.fieldRequired],
      [{ username: "ن".repeat(51), email: "b@example.com", password: "secret123" }, newsroomMessages.usernameTooLong],
      [{ username: "\u202e\u200b", email: "c@example.com", password: "secret123" }, newsroomMessages.usernameInvalid],
      [
        { username: "هلا", email: `${"x".repeat(250)}@example.com`, password: "secret123" },
        newsroomMessages.emailTooLong,
      ],
      [{ username: "هلا", email: "d@example.com", password: "p".repeat(1000) }, newsroomMessages.passwordTooLong],
      [{ username: "هلا", email: "e@example.com", password: "12345" }, authErrors["weak-password-short"].catalogue],
      [{ username: "هلا", email: "not-an-email", password: "secret123" }, authErrors["invalid-email"].catalogue],
      [
        { username: "هلا", email: "samer@example.com", password: "secret123" },
        authErrors["email-already-in-use"].catalogue,
      ],
    ];
    for (const [fields, message] of cases) {
      const response = await post(`${server.url}/autenction`, { intent: "signup", ...fields });
      expect(response.status, JSON.stringify(fields).slice(0, 80)).toBe(400);
      expect(await response.text()).toContain(message);
    }
    expect(await userCount()).toBe(before);
  });

  it("cleans unicode tricks out of the username", async () => {
    const response = await signUp(server.url, "\u202eمنى\u200b  \u0007علي", "mona@example.com", "secret123");
    expect(response.status).toBe(302);
    const row = await db
      .selectFrom("user")
      .select("name")
      .where("email", "=", "mona@example.com")
      .executeTakeFirstOrThrow();
    expect(row.name).toBe("منى علي");
  });
});

describe("sign-in", () => {
  it("tells an unknown email from a wrong password", async () => {
    const unknown = await post(`${server.url}/autenction`, {
      intent: "signin",
      email: "nobody@example.com",
      password: "secret123",
    });
    expect(unknown.status).toBe(400);
    expect(await unknown.text()).toContain(authErrors["user-not-found"].catalogue);
    const wrong = await post(`${server.url}/autenction`, {
      intent: "signin",
      email: "samer@example.com",
      password: "wrongpass",
    });
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(authErrors["wrong-password"].catalogue);
  });

  // Each spelling signs in through the form: one password check (scrypt) per target.
  it("goes to a path of this site and never to another, however redirectTo is spelled", async () => {
    const session = await signIn(server.url, "samer@example.com", "secret123");
    for (const [target, expected] of [...LEAVING.map((target) => [target, "/"] as const), ...STAYING]) {
      const signedIn = await get(`${server.url}/autenction?redirectTo=${encodeURIComponent(target)}`, session);
      expect([signedIn.status, signedIn.headers.get("location")], `GET ${JSON.stringify(target)}`).toEqual([
        302,
        expected,
      ]);
      const signingIn = await post(`${server.url}/autenction`, {
        intent: "signin",
        email: "samer@example.com",
        password: "secret123",
        redirectTo: target,
      });
      expect([signingIn.status, signingIn.headers.get("location")], `POST ${JSON.stringify(target)}`).toEqual([
        302,
        expected,
      ]);
    }
  }, 90_000);

  it("goes back after deleting an article only to a path of this site", async () => {
    const editor = await sessionAs(db, server, {
      email: "deleting-editor@example.com",
      username: "محرر",
      role: "editor",
    });
    for (const target of [
      "/.//evil.example",
      "/..//evil.example",
      "/a/..//evil.example",
      "/%2e%2e/%2e%2e//evil.example",
      "/\\evil.example",
    ]) {
      const { id } = await createTestArticle(db, { title: "خبر يُحذف", content: "نص", category: "local" });
      const response = await post(`${server.url}/news/${id}/delete`, { redirectTo: target }, editor);
      expect([response.status, response.headers.get("location")], target).toEqual([302, "/"]);
    }
  });

  it("signs out and ends the session in the database", async () => {
    const session = await signIn(server.url, "samer@example.com", "secret123");
    const sessionsBefore = await db.selectFrom("session").select("id").execute();
    const response = await post(`${server.url}/sign-out`, {}, session);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/");
    const after = await get(`${server.url}/`, session);
    expect(await after.text()).toContain(messages.signIn);
    expect(await db.selectFrom("session").select("id").execute()).toHaveLength(sessionsBefore.length - 1);
  });

  it("refuses a cross-site form post", async () => {
    const before = await userCount();
    const response = await post(
      `${server.url}/autenction`,
      { intent: "signup", username: "x", email: "csrf@example.com", password: "secret123" },
      undefined,
      { origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(await response.text()).toContain(messages.crossSiteRequest);
    expect(await userCount()).toBe(before);
  });
});

describe("rate limiting", () => {
  it("stops wrong passwords after 10 in fifteen minutes, with the catalogue message, and keeps the count in the database", async () => {
    let last: Response | undefined;
    for (let i = 0; i < 11; i++) {
      last = await post(`${server.url}/autenction`, {
        intent: "signin",
        email: "samer@example.com",
        password: "wrongpass",
      });
    }
    expect(last?.status).toBe(429);
    expect(await last?.text()).toContain(authErrors["too-many-requests"].catalogue);
    expect((await db.selectFrom("auth_attempts").selectAll().execute()).length).toBeGreaterThanOrEqual(10);
  });
});
