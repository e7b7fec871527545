import { createECDH } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR } from "~/lib/constants";
import { pushMessages as pm } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { createTempDatabase } from "../../../harness/temp-db";
import { subscribe } from "./subscriptions.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const SECRET = "push-limits-secret-push-limits-secret-0123";
const now = new Date("2026-11-28T10:00:00Z");
const keys = {
  p256dh: createECDH("prime256v1").generateKeys().toString("base64url"),
  auth: Buffer.alloc(16, 7).toString("base64url"),
};

function subscribeFrom(address: string, n: number): Promise<void> {
  const subscription = { endpoint: `https://fcm.googleapis.com/fcm/send/reader-${n}`, keys };
  return subscribe({ db, secret: SECRET, address, now, loopback: false }, { subscription, categories: [] });
}

describe("subscriptions from one client", () => {
  it("count every address of an IPv6 /64 as one client, which takes each of them at no cost", async () => {
    for (let n = 0; n < PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR; n++)
      await subscribeFrom(`2001:db8:5:6::${(n + 1).toString(16)}`, n);
    const refused = await subscribeFrom("2001:db8:5:6:aaaa:bbbb:cccc:dddd", 1000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "rate-limited", message: pm.subscribeTooMany });
    // Another /64, or an IPv4 client, is not held back by it.
    await subscribeFrom("2001:db8:5:7::1", 1001);
    await subscribeFrom("::ffff:203.0.113.5", 1002);
    expect(await db.selectFrom("push_subscriptions").select("endpoint").execute()).toHaveLength(
      PUSH_SUBSCRIPTIONS_PER_ADDRESS_PER_HOUR + 2,
    );
    // No address is stored, only keyed hashes.
    const attempts = await db.selectFrom("auth_attempts").select("key").execute();
    expect(attempts.filter(({ key }) => /2001|203\.0/.test(key))).toEqual([]);
  });
});
