import { afterEach, beforeEach, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import {
  addressesOfCsv,
  eraseSubscriber,
  importSubscribers,
  subscriberCounts,
  subscribersCsv,
} from "./newsroom.server";
import { signUp, unsubscribe } from "./subscribers.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const readers = () => ({ db, mailer: null, baseUrl: "http://localhost:3000", secret: "s".repeat(40) });
const now = new Date("2026-11-29T08:00:00Z");

it("reads the addresses of a CSV by its email column, lowercase, once each, skipping what is no address", () => {
  expect(addressesOfCsv("name,Email\nSalwa,Salwa@Example.com\nKarim,not-an-address\nS,salwa@example.com\n")).toEqual({
    emails: ["salwa@example.com"],
    skipped: 1,
  });
  expect(addressesOfCsv("a@example.com\r\nb@example.com").emails).toEqual(["a@example.com", "b@example.com"]);
});

it("imports a list marked imported, never bringing back an address that unsubscribed here", async () => {
  await signUp(
    readers(),
    { email: "left@example.com", choices: { brief: true, breaking: false, categories: [] }, clientIp: "203.0.113.9" },
    now,
    () => {},
  );
  const left = await db
    .selectFrom("newsletter_subscribers")
    .select("id")
    .where("email", "=", "left@example.com")
    .executeTakeFirstOrThrow();
  await unsubscribe(db, Number(left.id), now);

  expect(await importSubscribers(db, "email\nnew@example.com\nLEFT@example.com\nbad\n", now)).toEqual({
    added: 1,
    skipped: 2,
  });
  expect(await subscriberCounts(db)).toEqual({ confirmed: 1, pending: 0, unsubscribed: 1, bounced: 0 });
  const csv = await subscribersCsv(db);
  expect(csv).toContain("new@example.com,confirmed,1,0,,1,");
  expect(csv).toContain("left@example.com,unsubscribed,");
  await expect(importSubscribers(db, "nothing here", now)).rejects.toBeInstanceOf(AppError);

  await eraseSubscriber(db, Number(left.id));
  expect(await subscriberCounts(db)).toEqual({ confirmed: 1, pending: 0, unsubscribed: 0, bounced: 0 });
});
