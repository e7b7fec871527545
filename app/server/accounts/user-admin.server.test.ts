import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { createTestArticle } from "../../../harness/articles";
import { linkIn, startSmtpServer, type SmtpServer } from "../../../tests/support/smtp";
import { accountMessages, authErrors } from "~/lib/newsroom-messages";
import type { Role } from "~/lib/constants";
import type { DB } from "~/server/db/db.server";
import { createMailer, type Mailer } from "~/server/mail/mail.server";
import { AppError } from "~/server/platform/app-error.server";
import { signIn, type AccountsContext } from "./accounts.server";
import { createAuth, type Auth } from "./auth-instance.server";
import { getCurrentUser } from "./guards.server";
import { changeOwnPassword, openSessionCount, renameSelf, signOutOtherSessions } from "./own-account.server";
import {
  inviteMember,
  requestResetLink,
  resetWithToken,
  sendResetLinkTo,
  type ResetMailing,
} from "./password-reset.server";
import { changeRole, deleteAccount, listUsers, setDisabled, setOneTimePassword } from "./user-admin.server";
import { createAccount } from "./users.server";

const BASE = "http://localhost:3000";
const SECRET = "user-admin-secret-user-admin-secret-0123";
const PASSWORD = "secret123";

let db: DB;
let cleanup: () => Promise<void>;
let smtp: SmtpServer;
let mailer: Mailer;
let auth: Auth;

beforeAll(async () => {
  smtp = await startSmtpServer();
  mailer = createMailer({ smtpUrl: smtp.url, from: "Akhbar <newsroom@example.com>", dkim: null })!;
});
afterAll(async () => smtp.stop());
beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
  auth = createAuth(db, { baseUrl: BASE, authSecret: SECRET });
});
afterEach(async () => cleanup());

const account = (email: string, role: Role, username = "حساب") =>
  createAccount(auth, db, { email, username, password: PASSWORD, role });
const roleOf = async (id: string) =>
  (await db.selectFrom("user").select("role").where("id", "=", id).executeTakeFirstOrThrow()).role;
const sessionsOf = async (id: string) =>
  (await db.selectFrom("session").select("id").where("userId", "=", id).execute()).length;

async function cookieOf(email: string, password = PASSWORD): Promise<string> {
  const response = await auth.api.signInEmail({ body: { email, password }, asResponse: true });
  return response.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ");
}
const requestWith = (cookie: string) => new Request(`${BASE}/dashboard/account`, { headers: { cookie } });
const context = (): AccountsContext => ({ auth, db, baseUrl: BASE, authSecret: SECRET });
const mailing = (): ResetMailing => ({ db, mailer, baseUrl: BASE, authSecret: SECRET });
const signInAs = (email: string, password = PASSWORD) =>
  signIn(context(), new Request(`${BASE}/autenction`), "127.0.0.1", { email, password });

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (AppError.is(error)) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("listUsers", () => {
  it("finds accounts by name or email, case-insensitively, with % and _ matching themselves", async () => {
    await account("sara@example.com", "author", "سارة الخطيب");
    await account("omar_k@example.com", "editor", "Omar Kassem");
    await account("percent@example.com", "user", "100% قارئ");
    expect((await listUsers(db, "الخطيب")).map((u) => u.email)).toEqual(["sara@example.com"]);
    expect((await listUsers(db, "OMAR")).map((u) => u.email)).toEqual(["omar_k@example.com"]);
    expect((await listUsers(db, "r_k")).map((u) => u.email)).toEqual(["omar_k@example.com"]);
    expect((await listUsers(db, "%")).map((u) => u.email)).toEqual(["percent@example.com"]);
    expect(await listUsers(db, "")).toHaveLength(3);
    expect(await listUsers(db, "لا أحد")).toEqual([]);
  });
});

describe("roles and the last admin", () => {
  it("never demotes the last active admin, and lets one of two go", async () => {
    const first = await account("first@example.com", "admin");
    const err = await refusal(changeRole(db, first, "editor"));
    expect([err.status, err.message]).toEqual([409, accountMessages.lastAdmin]);
    expect(await roleOf(first)).toBe("admin");
    const second = await account("second@example.com", "admin");
    await changeRole(db, first, "editor");
    expect(await roleOf(first)).toBe("editor");
    expect((await refusal(changeRole(db, second, "user"))).message).toBe(accountMessages.lastAdmin);
  });

  it("a disabled admin does not count: the active one stays", async () => {
    const active = await account("active@example.com", "admin");
    const other = await account("other@example.com", "admin");
    await setDisabled(db, active, other, true);
    expect((await refusal(changeRole(db, active, "author"))).message).toBe(accountMessages.lastAdmin);
    expect((await refusal(deleteAccount(db, other, active))).message).toBe(accountMessages.lastAdmin);
  });

  it("admins all demoted at once leave exactly one admin", async () => {
    const admins = await Promise.all(
      ["a", "b", "c", "d", "e", "f"].map((name) => account(`${name}@example.com`, "admin")),
    );
    const results = await Promise.allSettled(admins.map((id) => changeRole(db, id, "user")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(admins.length - 1);
    expect((await Promise.all(admins.map(roleOf))).filter((r) => r === "admin")).toHaveLength(1);
  });

  it("refuses an unknown account", async () => {
    expect((await refusal(changeRole(db, "nobody", "editor"))).status).toBe(404);
  });
});

describe("disable and enable", () => {
  it("ends every session at once, refuses signing in with the Arabic message, and enabling lets them back", async () => {
    const admin = await account("admin@example.com", "admin");
    const editor = await account("editor@example.com", "editor");
    const cookie = await cookieOf("editor@example.com");
    expect(await getCurrentUser(auth, requestWith(cookie))).toMatchObject({ id: editor });
    await setDisabled(db, admin, editor, true);
    expect(await sessionsOf(editor)).toBe(0);
    expect(await getCurrentUser(auth, requestWith(cookie))).toBeNull();
    const refused = await refusal(signInAs("editor@example.com"));
    expect(refused).toMatchObject({ reason: "account-disabled", message: authErrors["account-disabled"].arabic });
    expect(await sessionsOf(editor)).toBe(0);
    await setDisabled(db, admin, editor, false);
    expect(await signInAs("editor@example.com")).not.toHaveLength(0);
  });

  it("refuses disabling oneself or the last admin", async () => {
    const admin = await account("admin@example.com", "admin");
    expect((await refusal(setDisabled(db, admin, admin, true))).message).toBe(accountMessages.notOnYourself);
    const editor = await account("editor@example.com", "editor");
    await changeRole(db, editor, "admin");
    await changeRole(db, admin, "editor");
    expect((await refusal(setDisabled(db, admin, editor, true))).message).toBe(accountMessages.lastAdmin);
  });
});

describe("delete", () => {
  it("deletes the account and keeps its articles, credited by its name", async () => {
    const admin = await account("admin@example.com", "admin");
    const author = await account("author@example.com", "author", "ليلى");
    await cookieOf("author@example.com");
    const own = await createTestArticle(db, { title: "خبر ليلى", content: "نص", authorId: author });
    const bylined = await createTestArticle(db, { title: "خبر وكالة", content: "نص", authorId: author });
    await db.updateTable("news").set({ byline: "وكالات" }).where("id", "=", bylined.id).execute();
    await deleteAccount(db, admin, author);
    expect(await db.selectFrom("user").select("id").where("id", "=", author).executeTakeFirst()).toBeUndefined();
    expect(await sessionsOf(author)).toBe(0);
    const rows = await db
      .selectFrom("news")
      .select(["id", "byline"])
      .where("id", "in", [own.id, bylined.id])
      .orderBy("title")
      .execute();
    expect(Object.fromEntries(rows.map((r) => [r.id, r.byline]))).toEqual({ [own.id]: "ليلى", [bylined.id]: "وكالات" });
    expect((await refusal(deleteAccount(db, admin, admin))).message).toBe(accountMessages.notOnYourself);
  });
});

describe("one-time password", () => {
  it("replaces the password, ends the sessions and signs in only with the new one", async () => {
    const user = await account("reader@example.com", "user");
    const cookie = await cookieOf("reader@example.com");
    const password = await setOneTimePassword(auth, db, user);
    expect(password.length).toBeGreaterThanOrEqual(12);
    expect(await getCurrentUser(auth, requestWith(cookie))).toBeNull();
    expect(await refusal(signInAs("reader@example.com"))).toMatchObject({ reason: "wrong-password" });
    expect(await signInAs("reader@example.com", password)).not.toHaveLength(0);
  });
});

describe("own account", () => {
  it("changes the password only with the current one, ending the other sessions", async () => {
    const user = await account("me@example.com", "author");
    const here = await cookieOf("me@example.com");
    const elsewhere = await cookieOf("me@example.com");
    const wrong = await refusal(
      changeOwnPassword(auth, db, requestWith(here), { currentPassword: "not-it", newPassword: "new-secret" }),
    );
    expect(wrong.message).toBe(authErrors["wrong-password"].arabic);
    const cookies = await changeOwnPassword(auth, db, requestWith(here), {
      currentPassword: PASSWORD,
      newPassword: "new-secret",
    });
    const renewed = cookies.map((c) => c.split(";")[0]).join("; ");
    expect(await getCurrentUser(auth, requestWith(elsewhere))).toBeNull();
    expect(await getCurrentUser(auth, requestWith(renewed))).toMatchObject({ id: user });
    expect(await refusal(signInAs("me@example.com"))).toMatchObject({ reason: "wrong-password" });
    expect(await signInAs("me@example.com", "new-secret")).not.toHaveLength(0);
  });

  it("renames and signs out of the other sessions", async () => {
    const user = await account("me@example.com", "user", "قديم");
    const here = await cookieOf("me@example.com");
    const elsewhere = await cookieOf("me@example.com");
    await renameSelf(auth, requestWith(here), "جديد");
    expect((await db.selectFrom("user").select("name").where("id", "=", user).executeTakeFirstOrThrow()).name).toBe(
      "جديد",
    );
    expect(await openSessionCount(db, user)).toBe(2);
    await signOutOtherSessions(auth, requestWith(here));
    expect(await openSessionCount(db, user)).toBe(1);
    expect(await getCurrentUser(auth, requestWith(here))).toMatchObject({ id: user });
    expect(await getCurrentUser(auth, requestWith(elsewhere))).toBeNull();
  });
});

describe("mail", () => {
  it("sends a reset link that works once, and says nothing about unknown emails", async () => {
    const user = await account("forgot@example.com", "editor");
    const cookie = await cookieOf("forgot@example.com");
    const afterResponse: Array<() => Promise<void>> = [];
    await requestResetLink(mailing(), "127.0.0.1", "nobody@example.com", (work) => void afterResponse.push(work));
    await requestResetLink(mailing(), "127.0.0.1", "forgot@example.com", (work) => void afterResponse.push(work));
    expect(await db.selectFrom("verification").select("id").execute()).toEqual([]);
    await Promise.all(afterResponse.map((work) => work()));
    const link = linkIn(await smtp.mailTo("forgot@example.com"));
    expect(smtp.received.filter((mail) => mail.to.includes("nobody@example.com"))).toEqual([]);
    const token = new URL(link).searchParams.get("token")!;
    await resetWithToken(auth, token, "from-the-link");
    expect(await getCurrentUser(auth, requestWith(cookie))).toBeNull();
    expect(await signInAs("forgot@example.com", "from-the-link")).not.toHaveLength(0);
    expect((await refusal(resetWithToken(auth, token, "once-more"))).message).toBe(accountMessages.resetInvalid);
    expect(user).toBeTruthy();
  });

  it("refuses an expired link and a short password, keeping the old password", async () => {
    const user = await account("late@example.com", "user");
    await sendResetLinkTo(mailing(), user);
    const token = new URL(linkIn(await smtp.mailTo("late@example.com"))).searchParams.get("token")!;
    expect((await refusal(resetWithToken(auth, token, "abc"))).message).toBe(authErrors["weak-password-short"].arabic);
    await db
      .updateTable("verification")
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await refusal(resetWithToken(auth, token, "long-enough"))).message).toBe(accountMessages.resetInvalid);
    expect(await signInAs("late@example.com")).not.toHaveLength(0);
  });

  it("invites a new member, whose link sets the first password", async () => {
    await inviteMember(auth, mailing(), "رئيسة التحرير", { name: "مراسل", email: "new@example.com", role: "author" });
    const mail = await smtp.mailTo("new@example.com");
    expect(mail.text).toContain("رئيسة التحرير");
    const token = new URL(linkIn(mail)).searchParams.get("token")!;
    await resetWithToken(auth, token, "chosen-password");
    expect(await signInAs("new@example.com", "chosen-password")).not.toHaveLength(0);
    const row = await db
      .selectFrom("user")
      .select(["role", "name"])
      .where("email", "=", "new@example.com")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "author", name: "مراسل" });
    expect(
      (await refusal(inviteMember(auth, mailing(), "x", { name: "y", email: "new@example.com", role: "editor" })))
        .status,
    ).toBe(409);
  });

  it("without mail, says how to turn it on", async () => {
    expect(
      (await refusal(requestResetLink({ ...mailing(), mailer: null }, "127.0.0.1", "a@example.com", () => {}))).message,
    ).toBe(accountMessages.mailOff);
    expect(
      (
        await refusal(
          inviteMember(auth, { ...mailing(), mailer: null }, "x", {
            name: "y",
            email: "z@example.com",
            role: "author",
          }),
        )
      ).message,
    ).toBe(accountMessages.mailOff);
  });
});
