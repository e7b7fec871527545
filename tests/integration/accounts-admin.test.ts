/**
 * Accounts (decision 023) through the real server (SMTP_URL pointing at a local SMTP server): the users
 * page, the account page and the reset pages, their refusals of bad input, and what they leave stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { accountMessages, authErrors, newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { cookiesFrom, get, post, signIn, type Session } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { createTestAccount, sessionCookie, TEST_PASSWORD } from "../../harness/accounts";
import { linkIn, startSmtpServer, type SmtpServer } from "../support/smtp";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let smtp: SmtpServer;
let db: DB;
let admin: Session;
let adminId = "";

const users = (fields: Record<string, string>, session = admin) =>
  post(`${server.url}/dashboard/users`, fields, session);
const account = (fields: Record<string, string>, session: Session) =>
  post(`${server.url}/dashboard/account`, fields, session);
const roleOf = async (email: string) =>
  (await db.selectFrom("user").select("role").where("email", "=", email).executeTakeFirstOrThrow()).role;
const idOf = async (email: string) =>
  (await db.selectFrom("user").select("id").where("email", "=", email).executeTakeFirstOrThrow()).id;
const member = async (email: string, role: "user" | "author" | "editor" | "admin", username = "عضو") => {
  const id = await createTestAccount(db, server.site, { email, username, role });
  return { id, session: { cookie: await sessionCookie(db, server.site, email) } };
};
const usersSnapshot = async () =>
  JSON.stringify(await db.selectFrom("user").select(["id", "name", "role", "disabledAt"]).orderBy("id").execute());

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ server, db } = await startServerAndDb({ SMTP_URL: smtp.url, MAIL_FROM: "Akhbar <newsroom@example.com>" }));
  adminId = await createTestAccount(db, server.site, {
    email: "admin@example.com",
    username: "المديرة",
    role: "admin",
  });
  admin = { cookie: await sessionCookie(db, server.site, "admin@example.com") };
});
afterAll(async () => {
  await stopServerAndDb({ server, db });
  await smtp.stop();
});

describe("users page", () => {
  it("lists and searches accounts", async () => {
    await member("list-one@example.com", "author", "نادية الحسن");
    const page = await (await get(`${server.url}/dashboard/users?q=${encodeURIComponent("الحسن")}`, admin)).text();
    expect(page).toContain("list-one@example.com");
    expect(page).not.toContain("admin@example.com");
  });

  it("disabling an editor ends the session they hold, and their sign-in is refused in Arabic", async () => {
    const editor = await member("disabled@example.com", "editor");
    expect((await get(`${server.url}/dashboard`, editor.session)).status).toBe(200);
    const answer = await users({ intent: "disable", userId: editor.id });
    expect(answer.status).toBe(200);
    expect(await answer.text()).toContain(accountMessages.accountDisabledDone);
    const next = await get(`${server.url}/dashboard`, editor.session);
    expect(next.status).toBe(302);
    expect(next.headers.get("location")).toMatch(/^\/autenction/);
    const signInAgain = await post(`${server.url}/autenction`, {
      intent: "signin",
      email: "disabled@example.com",
      password: TEST_PASSWORD,
    });
    expect(signInAgain.status).toBe(400);
    expect(await signInAgain.text()).toContain(authErrors["account-disabled"].arabic);
    await users({ intent: "enable", userId: editor.id });
    await signIn(server.url, "disabled@example.com", TEST_PASSWORD);
  });

  it("never demotes, disables or deletes the last admin", async () => {
    const before = await usersSnapshot();
    const demote = await users({ intent: "role", userId: adminId, role: "editor" });
    expect(demote.status).toBe(409);
    expect(await demote.text()).toContain(accountMessages.lastAdmin);
    expect(await roleOf("admin@example.com")).toBe("admin");
    expect((await users({ intent: "disable", userId: adminId })).status).toBe(400);
    expect((await users({ intent: "delete", userId: adminId })).status).toBe(400);
    expect(await usersSnapshot()).toBe(before);
  });

  it("changes roles, shows a one-time password once (never cached), and deletes", async () => {
    const author = await member("promoted@example.com", "author");
    expect((await users({ intent: "role", userId: author.id, role: "editor" })).status).toBe(200);
    expect(await roleOf("promoted@example.com")).toBe("editor");
    const reset = await users({ intent: "one-time-password", userId: author.id });
    expect(reset.headers.get("cache-control")).toContain("no-store");
    const password = /data-testid="one-time-password"[^>]*>([^<]+)</.exec(await reset.text())?.[1];
    expect(password).toBeTruthy();
    expect((await get(`${server.url}/dashboard`, author.session)).status).toBe(302);
    await signIn(server.url, "promoted@example.com", password!);
    expect((await users({ intent: "delete", userId: author.id })).status).toBe(200);
    expect(
      await db.selectFrom("user").select("id").where("email", "=", "promoted@example.com").executeTakeFirst(),
    ).toBeUndefined();
  });

  it("refuses bad input with Arabic messages and changes nothing", async () => {
    const target = await member("hostile@example.com", "author");
    const before = await usersSnapshot();
    const cases: [Record<string, string>, number, string][] = [
      [{ intent: "role", userId: target.id, role: "owner" }, 400, accountMessages.roleInvalid],
      [{ intent: "role", userId: "x".repeat(5000), role: "editor" }, 400, accountMessages.accountNotFound],
      [{ intent: "role", userId: "nobody", role: "editor" }, 404, accountMessages.accountNotFound],
      [{ intent: "disable" }, 400, accountMessages.accountNotFound],
      [{ intent: "explode", userId: target.id }, 400, messages.badRequest],
      [
        { intent: "invite", username: "\u200b\u202e", email: "not-an-email", role: "author" },
        400,
        newsroomMessages.usernameInvalid,
      ],
      [
        { intent: "invite", username: "مدعو", email: "admin@example.com", role: "admin" },
        409,
        authErrors["email-already-in-use"].arabic,
      ],
      [{ intent: "invite", username: "مدعو", email: "x@example.com", role: "user" }, 400, accountMessages.roleInvalid],
    ];
    for (const [fields, status, message] of cases) {
      const response = await users(fields);
      expect(response.status, JSON.stringify(fields)).toBe(status);
      expect(await response.text(), JSON.stringify(fields)).toContain(message);
    }
    const json = await fetch(`${server.url}/dashboard/users`, {
      method: "POST",
      body: "{}",
      headers: { cookie: admin.cookie, "content-type": "application/json" },
    });
    expect(json.status).toBe(400);
    expect(await usersSnapshot()).toBe(before);
  });

  it("invites a new editor by mail; the link sets their password once", async () => {
    expect(
      (await users({ intent: "invite", username: "مراسلة", email: "invited@example.com", role: "editor" })).status,
    ).toBe(200);
    const link = linkIn(await smtp.mailTo("invited@example.com"));
    const token = new URL(link).searchParams.get("token")!;
    expect((await get(link)).status).toBe(200);
    const done = await post(`${server.url}/reset-password`, { intent: "reset", token, newPassword: "invited-secret" });
    expect(await done.text()).toContain(accountMessages.resetDone);
    await signIn(server.url, "invited@example.com", "invited-secret");
    expect(await roleOf("invited@example.com")).toBe("editor");
    const again = await post(`${server.url}/reset-password`, { intent: "reset", token, newPassword: "another-one" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain(accountMessages.resetInvalid);
  });
});

describe("account page and forgot password", () => {
  it("changes the password with the current one; the old one is refused afterwards", async () => {
    const me = await member("changer@example.com", "user", "مغيّر");
    const wrong = await account(
      { intent: "password", currentPassword: "nope-nope", newPassword: "brand-new" },
      me.session,
    );
    expect(wrong.status).toBe(400);
    expect(await wrong.text()).toContain(authErrors["wrong-password"].arabic);
    const short = await account({ intent: "password", currentPassword: TEST_PASSWORD, newPassword: "abc" }, me.session);
    expect(short.status).toBe(400);
    expect(await short.text()).toContain(authErrors["weak-password-short"].arabic);
    const changed = await account(
      { intent: "password", currentPassword: TEST_PASSWORD, newPassword: "brand-new" },
      me.session,
    );
    expect(changed.status).toBe(302);
    expect(changed.headers.get("location")).toBe("/dashboard/account?done=password");
    const renewed = { cookie: cookiesFrom(changed) };
    expect(renewed.cookie).toMatch(/better-auth.session_token=/);
    expect(await (await get(`${server.url}/dashboard/account?done=password`, renewed)).text()).toContain(
      accountMessages.passwordChanged,
    );
    expect((await get(`${server.url}/dashboard/account`, me.session)).status).toBe(302);
    await expect(signIn(server.url, "changer@example.com", TEST_PASSWORD)).rejects.toThrow(/400/);
    await signIn(server.url, "changer@example.com", "brand-new");
  });

  it("renames, refusing a name of invisible characters", async () => {
    const me = await member("renamer@example.com", "author", "قديم");
    const bad = await account({ intent: "rename", username: "\u200f\u200b " }, me.session);
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(newsroomMessages.usernameInvalid);
    expect((await account({ intent: "rename", username: "  اسم   جديد " }, me.session)).status).toBe(200);
    expect((await db.selectFrom("user").select("name").where("id", "=", me.id).executeTakeFirstOrThrow()).name).toBe(
      "اسم جديد",
    );
  });

  it("forgot password mails a link that resets once; unknown emails get the same answer", async () => {
    await member("forgetful@example.com", "editor");
    for (const email of ["forgetful@example.com", "ghost@example.com"]) {
      const answer = await post(`${server.url}/reset-password`, { intent: "forgot", email });
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain(accountMessages.forgotSent);
    }
    const token = new URL(linkIn(await smtp.mailTo("forgetful@example.com"))).searchParams.get("token")!;
    expect(
      (await post(`${server.url}/reset-password`, { intent: "reset", token, newPassword: "remembered" })).status,
    ).toBe(200);
    await signIn(server.url, "forgetful@example.com", "remembered");
    expect((await post(`${server.url}/reset-password`, { intent: "forgot", email: "not an email" })).status).toBe(400);
    expect(await idOf("forgetful@example.com")).toBeTruthy();
  });
});
