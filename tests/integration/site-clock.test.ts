import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { deletePublishedArticle, publishArticle } from "../../harness/articles";
import { newSiteClock } from "../support/site-clock";
import { createEmptyDatabase, type EmptyDatabase } from "../../harness/temp-db";
import { refusedStart, startTestServer, type TestServer } from "../../harness/test-server";

/*
 * TEST_CLOCK_FILE: the clock a test moves instead of waiting. The newsroom's writes and its clock-driven
 * work (the scheduler, the trash purge) all read it, so the times they store agree with each other.
 */

const DAY = 24 * 60 * 60 * 1000;
const clock = newSiteClock();
let database: EmptyDatabase;
let db: DB;
let mediaDir: string;

const startServer = () => startTestServer({ DATABASE_URL: database.url, MEDIA_DIR: mediaDir, ...clock.env });
const articleRow = (id: string) =>
  db.selectFrom("news").select(["published_at", "deleted_at"]).where("id", "=", id).executeTakeFirst();

beforeAll(async () => {
  database = await createEmptyDatabase();
  db = openDatabase(database.url);
  mediaDir = mkdtempSync(path.join(tmpdir(), "akhbar-clock-media-"));
});
afterAll(async () => {
  await db?.destroy();
  await database?.drop();
  rmSync(mediaDir, { recursive: true, force: true });
  clock.remove();
});

describe("the site's clock (TEST_CLOCK_FILE)", () => {
  it("stamps publication and deletion, and the trash purge at start counts its 30 days on it", async () => {
    let server: TestServer | undefined = await startServer();
    try {
      const cookie = await signedInAs(db, server.site, {
        email: "clock@example.com",
        username: "مكتب الساعة",
        role: "admin",
      });
      clock.moveTo(Date.now() + DAY);
      const id = await publishArticle(server.url, { cookie }, { title: "خبر على ساعة الموقع" });
      const published = Date.parse((await articleRow(id))!.published_at!);
      expect(Math.abs(published - clock.now())).toBeLessThan(60_000);

      await deletePublishedArticle(server.url, { cookie }, id);
      const deleted = Date.parse((await articleRow(id))!.deleted_at!);
      expect(Math.abs(deleted - clock.now())).toBeLessThan(60_000);
      await server.stop();
      server = undefined;

      clock.moveTo(clock.now() + 29 * DAY);
      server = await startServer();
      expect(await articleRow(id)).toBeDefined();
      await server.stop();
      server = undefined;

      clock.moveTo(clock.now() + 2 * DAY);
      server = await startServer();
      expect(await articleRow(id)).toBeUndefined();
    } finally {
      await server?.stop();
    }
  }, 120_000);

  it("is refused, stopping the start, on a server other machines reach or that names a real site", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "akhbar-clock-refused-"));
    try {
      const unsafe: Record<string, string>[] = [{ HOST: "0.0.0.0" }, { BASE_URL: "https://news.example.org" }];
      for (const env of unsafe) {
        const output = await refusedStart(dir, { ...clock.env, ...env });
        expect(output).toContain("TEST_CLOCK_FILE: for tests only");
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
