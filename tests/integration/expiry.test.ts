/**
 * Moments that end something (a session, a reset link, an invitation link) end it on both engines: the
 * expiry is moved into the past in the database and the real server is asked again.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { createTestAccount, sessionCookie, TEST_PASSWORD } from "../../harness/accounts";
import { get, post, signIn } from "../../harness/http-client";
import { linkIn, startSmtpServer, type SmtpServer } from "../support/smtp";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let smtp: SmtpServer;
let db: DB;

const AN_HOUR_AGO = () => new Date(Date.now() - 60 * 60 * 1000).toISOString();
const nameOf = async (id: string) =>
  (await db.selectFrom("user").select("name").where("id", "=", id).executeTakeFirstOrThrow()).name;
const tokenIn = async (email: string) => new URL(linkIn(await smtp.mailTo(email))).searchParams.get("token")!;

/** Moves the reset or invitation link's expiry into the past. */
async function expireLink(token: string): Promise<void> {
  const { numUpdatedRows } = await db
    .updateTable("verification")
    .set({ expiresAt: AN_HOUR_AGO() })
    .where("identifier", "=", `reset-password:${token}`)
    .executeTakeFirst();
  expect(numUpdatedRows).toBe(1n);
}

/** The link is refused in Arabic, and the password it would have set does not sign in. */
async function expectRefusedLink(token: string, email: string): Promise<void> {
  const answer = await post(`${server.url}/reset-password`, {
    intent: "reset",
    token,
    newPassword: "set-after-expiry",
  });
  expect(answer.status).toBe(400);
  expect(await answer.text()).toContain(accountMessages.resetInvalid);
  await expect(signIn(server.url, email, "set-after-expiry")).rejects.toThrow(/400/);
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  ({ server, db } = await startServerAndDb({ SMTP_URL: smtp.url, MAIL_FROM: "Akhbar <newsroom@example.com>" }));
});
afterAll(async () => {
  await stopServerAndDb({ server, db });
  await smtp.stop();
});

describe("expired moments end what they bound", () => {
  it("an expired session is refused: the account page sends to sign-in and a rename changes nothing", async () => {
    const id = await createTestAccount(db, server.site, {
      email: "expired-session@example.com",
      username: "قبل الانتهاء",
      role: "editor",
    });
    const session = { cookie: await sessionCookie(db, server.site, "expired-session@example.com") };
    expect((await get(`${server.url}/dashboard/account`, session)).status).toBe(200);

    await db.updateTable("session").set({ expiresAt: AN_HOUR_AGO() }).where("userId", "=", id).execute();
    const page = await get(`${server.url}/dashboard/account`, session);
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toMatch(/^\/autenction\?redirectTo=/);
    const rename = await post(
      `${server.url}/dashboard/account`,
      { intent: "rename", username: "بعد الانتهاء" },
      session,
    );
    expect(rename.status).not.toBe(200);
    expect(await nameOf(id)).toBe("قبل الانتهاء");
  });

  it("an expired reset link sets no password", async () => {
    await createTestAccount(db, server.site, { email: "expired-reset@example.com", username: "ناسية", role: "user" });
    expect(
      (await post(`${server.url}/reset-password`, { intent: "forgot", email: "expired-reset@example.com" })).status,
    ).toBe(200);
    const token = await tokenIn("expired-reset@example.com");
    await expireLink(token);
    await expectRefusedLink(token, "expired-reset@example.com");
    await signIn(server.url, "expired-reset@example.com", TEST_PASSWORD);
  });

  it("an expired invitation link sets no password", async () => {
    await createTestAccount(db, server.site, { email: "inviter@example.com", username: "المديرة", role: "admin" });
    const admin = { cookie: await sessionCookie(db, server.site, "inviter@example.com") };
    const invited = await post(
      `${server.url}/dashboard/users`,
      { intent: "invite", username: "مدعوة", email: "expired-invite@example.com", role: "author" },
      admin,
    );
    expect(invited.status).toBe(200);
    const token = await tokenIn("expired-invite@example.com");
    await expireLink(token);
    await expectRefusedLink(token, "expired-invite@example.com");
  });
});
