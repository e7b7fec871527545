import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/db.server";
import { withStartupLock } from "~/server/db/startup-lock.server";
import { demoArticles } from "~/server/demo/demo-articles";
import { mediaNamesOf } from "~/server/media/media.server";
import { createEmptyDatabase, type EmptyDatabase } from "../../../harness/temp-db";
import { parseConfig } from "~/server/platform/config.server";
import { prepareData } from "./prepare-data.server";
import { createTestArticle } from "../../../harness/articles";
import { TRASH_KEEP_MS, trashArticle } from "~/server/news/trash.server";

let database: EmptyDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

describe("the start-up lock", () => {
  it("lets one holder at a time in, on one database", async () => {
    database = await createEmptyDatabase();
    const url = database.url;
    let inside = 0;
    let mostInside = 0;
    const holder = () =>
      withStartupLock(url, async () => {
        inside++;
        mostInside = Math.max(mostInside, inside);
        await new Promise((r) => setTimeout(r, 100));
        inside--;
      });
    await Promise.all([holder(), holder(), holder()]);
    expect(mostInside).toBe(1);
  });

  it("gives up with a clear message when another start-up holds it too long", async () => {
    database = await createEmptyDatabase();
    const url = database.url;
    let release = () => {};
    const held = withStartupLock(url, () => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((r) => setTimeout(r, 200));
    await expect(withStartupLock(url, async () => {}, 300)).rejects.toThrow(
      /Another server on this database has been starting/,
    );
    release();
    await held;
  });
});

describe("servers starting together on one database", () => {
  it("seed the demo content exactly once", { timeout: 180_000 }, async () => {
    database = await createEmptyDatabase();
    const cfg = parseConfig({
      DATABASE_URL: database.url,
      MEDIA_DIR: path.join(database.dir, "media"),
      AUTH_SECRET: "startup-test-secret-startup-test-secret",
      DEMO_CONTENT: "on",
      LOG_LEVEL: "silent",
    });
    // Each start opens its own connection, as separate processes would.
    await Promise.all([prepareData(cfg), prepareData(cfg), prepareData(cfg), prepareData(cfg)]);
    const db = openDatabase(database.url);
    try {
      const news = await db
        .selectFrom("news")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      const users = await db.selectFrom("user").select(["email"]).execute();
      expect(Number(news.n)).toBe(demoArticles.length);
      expect(users.map((u) => u.email)).toEqual(["admin@akhbar.local"]);
      // Every demo video has a poster of its own, in the library, its variants on disk: no black box.
      const videos = demoArticles.flatMap((article) => (article.videoUrl ? [article.videoUrl] : []));
      expect(videos.length).toBeGreaterThan(0);
      const posters = await db
        .selectFrom("video_posters")
        .innerJoin("media", "media.url", "video_posters.poster_url")
        .select(["video_url", "poster_url"])
        .execute();
      expect(posters.map((poster) => poster.video_url).sort()).toEqual([...videos].sort());
      const covers = (await db.selectFrom("news").select("images").execute()).flatMap(
        (row) => JSON.parse(row.images) as string[],
      );
      for (const { poster_url: poster } of posters) {
        expect(covers).not.toContain(poster);
        for (const name of mediaNamesOf(poster)) expect(existsSync(path.join(cfg.mediaDir, name))).toBe(true);
      }
    } finally {
      await db.destroy();
    }
  });
});

describe("the trash at start-up", () => {
  it("deletes for good what has been in the trash for more than 30 days, and keeps what has not", async () => {
    database = await createEmptyDatabase();
    const cfg = parseConfig({
      DATABASE_URL: database.url,
      MEDIA_DIR: path.join(database.dir, "media"),
      AUTH_SECRET: "startup-test-secret-startup-test-secret",
      DEMO_CONTENT: "off",
      LOG_LEVEL: "silent",
    });
    await prepareData(cfg);
    const db = openDatabase(database.url);
    try {
      const old = await createTestArticle(db, { title: "قديم في المهملات" });
      const recent = await createTestArticle(db, { title: "حديث في المهملات" });
      await trashArticle(db, old.id, new Date(Date.now() - TRASH_KEEP_MS - 60_000));
      await trashArticle(db, recent.id, new Date(Date.now() - TRASH_KEEP_MS + 60 * 60_000));
      await prepareData(cfg);
      expect((await db.selectFrom("news").select("title").execute()).map((row) => row.title)).toEqual([
        "حديث في المهملات",
      ]);
    } finally {
      await db.destroy();
    }
  });
});
