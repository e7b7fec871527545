import { getMigrations } from "better-auth/db/migration";
import { afterEach, beforeEach, expect, it } from "vitest";
import { createTempDatabase } from "../../../tests/support/temp-db";
import { createAuth } from "~/server/accounts/auth-instance.server";
import type { DB } from "./db.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

it("our migrations create every table and column better-auth needs", async () => {
  const auth = createAuth(db, { baseUrl: "http://localhost:3000", authSecret: "t".repeat(40) });
  const { toBeCreated, toBeAdded } = await getMigrations(auth.options);
  expect(toBeCreated).toEqual([]);
  expect(toBeAdded).toEqual([]);
});
