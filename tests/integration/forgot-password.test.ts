/**
 * "Forgot password" through the real server and a local SMTP server: limited per email and per client
 * address, answered in the same time whether or not the email is registered (the mail goes out after
 * the answer), and only an account's newest reset link works.
 */
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { accountMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { RESET_ADDRESS_RULE, RESET_EMAIL_RULE } from "~/server/accounts/auth-limits.server";
import { createTestAccount, sessionCookie, TEST_PASSWORD } from "../../harness/accounts";
import { post, VISITOR, type Session } from "../../harness/http-client";
import { linkIn, startSmtpServer, type ReceivedMail, type SmtpServer } from "../support/smtp";
import type { TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let smtp: SmtpServer;
let db: DB;
let admin: Session;

beforeAll(async () => {
  smtp = await startSmtpServer();
  // Behind a trusted proxy on this machine, so each request can come from an address of its own.
  ({ server, db } = await startServerAndDb({
    SMTP_URL: smtp.url,
    MAIL_FROM: "Akhbar <newsroom@example.com>",
    TRUST_PROXY: "loopback",
  }));
  await createTestAccount(db, server.site, { email: "reset-admin@example.com", username: "المديرة", role: "admin" });
  admin = { cookie: await sessionCookie(db, server.site, "reset-admin@example.com") };
});
afterAll(async () => {
  await stopServerAndDb({ server, db });
  await smtp.stop();
});

let forged = 0;
/** A different made-up client address each call. */
const anotherAddress = () => `10.30.${(++forged >> 8) & 255}.${forged & 255}`;
const forgot = (email: string, from = anotherAddress()) =>
  post(`${server.url}/reset-password`, { intent: "forgot", email }, VISITOR, { "x-forwarded-for": from });
const reset = (token: string, newPassword = "a-new-password") =>
  post(`${server.url}/reset-password`, { intent: "reset", token, newPassword });
const tokenOf = (mail: ReceivedMail) => new URL(linkIn(mail)).searchParams.get("token")!;
const member = (email: string) => createTestAccount(db, server.site, { email, username: "عضو", role: "author" });
/** The reset and invitation links of the account still stored. */
const linksOf = async (userId: string) =>
  (
    await db
      .selectFrom("verification")
      .select("identifier")
      .where("value", "=", userId)
      .where("identifier", "like", "reset-password:%")
      .execute()
  ).map((row) => row.identifier.slice("reset-password:".length));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function expectRefusedLink(token: string) {
  const answer = await reset(token);
  expect(answer.status).toBe(400);
  expect(await answer.text()).toContain(accountMessages.resetInvalid);
}

describe("forgot password", () => {
  it("answers in the same time whether or not the email is registered", async () => {
    const rounds = 21;
    for (let i = 0; i < rounds; i++) await member(`timed-${i}@example.com`);
    for (let i = 0; i < 3; i++) await (await forgot(`warm-up-${i}@example.com`)).text();
    const took = { registered: [] as number[], unknown: [] as number[] };
    const timed = async (kind: keyof typeof took, email: string) => {
      const started = performance.now();
      const answer = await forgot(email);
      const text = await answer.text();
      took[kind].push(performance.now() - started);
      expect(answer.status).toBe(200);
      expect(text).toContain(accountMessages.forgotSent);
    };
    const registeredRound = async (i: number) => {
      await timed("registered", `timed-${i}@example.com`);
      // The mail goes after the answer; waiting for it keeps its sending out of the next answer's time.
      await smtp.mailTo(`timed-${i}@example.com`);
    };
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) await registeredRound(i);
      await timed("unknown", `nobody-${i}@example.com`);
      if (i % 2 === 1) await registeredRound(i);
    }
    const [registered, unknown] = [median(took.registered), median(took.unknown)];
    console.info(
      `forgot password, median of ${rounds}: registered ${registered.toFixed(1)} ms, unknown ${unknown.toFixed(1)} ms`,
    );
    expect(Math.abs(registered - unknown)).toBeLessThan(Math.max(10, Math.min(registered, unknown) * 0.5));
  });

  it(`mails one email at most ${RESET_EMAIL_RULE.max} links an hour from any number of addresses, and only the newest works`, async () => {
    const userId = await member("flooded@example.com");
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const answer = await forgot("flooded@example.com");
      statuses.push(answer.status);
      if (answer.status === 429) {
        expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
        expect(answer.headers.get("cache-control")).toMatch(/no-store/);
        expect(await answer.text()).toContain(accountMessages.resetTooMany);
      }
    }
    expect(statuses).toEqual([
      ...Array<number>(RESET_EMAIL_RULE.max).fill(200),
      ...Array<number>(30 - RESET_EMAIL_RULE.max).fill(429),
    ]);
    const tokens: string[] = [];
    for (let i = 0; i < RESET_EMAIL_RULE.max; i++) tokens.push(tokenOf(await smtp.mailTo("flooded@example.com")));
    const stored = await linksOf(userId);
    expect(stored).toHaveLength(1);
    expect(tokens).toContain(stored[0]);
    for (const token of tokens.filter((token) => token !== stored[0])) await expectRefusedLink(token);
    expect((await reset(stored[0]!)).status).toBe(200);
    expect(await linksOf(userId)).toEqual([]);
  });

  it(`takes at most ${RESET_ADDRESS_RULE.max} requests an hour from one address, whatever the emails`, async () => {
    const office = anotherAddress();
    for (let i = 0; i < RESET_ADDRESS_RULE.max; i++)
      expect((await forgot(`someone-${i}@example.com`, office)).status).toBe(200);
    const refused = await forgot("one-more@example.com", office);
    expect(refused.status).toBe(429);
    expect(await refused.text()).toContain(accountMessages.resetTooMany);
    expect((await forgot("one-more@example.com")).status).toBe(200);
  });

  it("ends an account's older links when a new one is sent, and when its password changes any other way", async () => {
    const userId = await member("changes@example.com");
    const me = { cookie: await sessionCookie(db, server.site, "changes@example.com") };
    const users = (fields: Record<string, string>) => post(`${server.url}/dashboard/users`, fields, admin);

    await forgot("changes@example.com");
    const beforeOwnChange = tokenOf(await smtp.mailTo("changes@example.com"));
    const changed = await post(
      `${server.url}/dashboard/account`,
      { intent: "password", currentPassword: TEST_PASSWORD, newPassword: "changed-here" },
      me,
    );
    expect(changed.status).toBe(302);
    await expectRefusedLink(beforeOwnChange);

    await forgot("changes@example.com");
    const beforeOneTimePassword = tokenOf(await smtp.mailTo("changes@example.com"));
    expect((await users({ intent: "one-time-password", userId })).status).toBe(200);
    await expectRefusedLink(beforeOneTimePassword);

    expect((await users({ intent: "reset-link", userId })).status).toBe(200);
    const sentByAdmin = tokenOf(await smtp.mailTo("changes@example.com"));
    await forgot("changes@example.com");
    const asked = tokenOf(await smtp.mailTo("changes@example.com"));
    await expectRefusedLink(sentByAdmin);
    expect((await reset(asked)).status).toBe(200);

    expect(
      (await users({ intent: "invite", username: "مدعوّ", email: "invited-twice@example.com", role: "author" })).status,
    ).toBe(200);
    const invitation = tokenOf(await smtp.mailTo("invited-twice@example.com"));
    await forgot("invited-twice@example.com");
    const newer = tokenOf(await smtp.mailTo("invited-twice@example.com"));
    await expectRefusedLink(invitation);
    expect((await reset(newer)).status).toBe(200);
  });
});
