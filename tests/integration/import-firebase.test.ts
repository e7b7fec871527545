import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FIXTURE, makeFirebaseFixtures, type FirebaseFixtures } from "../../scripts/make-firebase-fixtures";
import { createAuth } from "~/server/accounts/auth-instance.server";
import { openDatabase, type DB } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import { getArticle } from "~/server/news/articles-read.server";
import { deleteArticle } from "~/server/news/articles-write.server";
import { resolveShortLink } from "~/server/news/short-links.server";
import { searchNews } from "~/server/news/search-news.server";
import { totalSiteVisits } from "~/server/visits/visits.server";
import { createPostgresDatabase, onPostgres } from "../../harness/postgres";
import { runScript } from "../support/scripts";

const site = { baseUrl: "http://127.0.0.1:4599", authSecret: "import-secret-import-secret-import-secret" };

let dir: string;
let fixtures: FirebaseFixtures;
let db: DB;
let env: Record<string, string>;
let dropPostgres: (() => Promise<void>) | undefined;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "akhbar-import-"));
  fixtures = await makeFirebaseFixtures(path.join(dir, "export"));
  const postgres = onPostgres ? await createPostgresDatabase("akhbar_import_") : undefined;
  dropPostgres = postgres?.drop;
  const url = postgres?.url ?? path.join(dir, "site.db");
  db = openDatabase(url);
  await migrateToLatest(db);
  env = {
    DATABASE_URL: url,
    MEDIA_DIR: path.join(dir, "media"),
    AUTH_SECRET: site.authSecret,
    BASE_URL: site.baseUrl,
    LOG_LEVEL: "warn",
  };
}, 60_000);

afterAll(async () => {
  await db?.destroy();
  await dropPostgres?.();
  rmSync(dir, { recursive: true, force: true });
});

const importArgs = (firestore: string, more: string[] = []) => [
  "--firestore",
  firestore,
  "--auth",
  fixtures.auth,
  "--hash-config",
  fixtures.hashConfig,
  "--storage",
  fixtures.storage,
  ...more,
];

function mediaFiles(): string[] {
  const folder = path.join(dir, "media", "news-images");
  const videos = path.join(dir, "media", "news-videos");
  return [
    ...(existsSync(folder) ? readdirSync(folder) : []),
    ...(existsSync(videos) ? readdirSync(videos) : []),
  ].sort();
}

/** Every table the import writes, as rows, to compare before and after. */
async function snapshot() {
  return {
    news: await db.selectFrom("news").selectAll().orderBy("id").execute(),
    shortLinks: await db.selectFrom("short_links").selectAll().orderBy("short_id").execute(),
    users: await db.selectFrom("user").selectAll().orderBy("id").execute(),
    accounts: await db.selectFrom("account").selectAll().orderBy("id").execute(),
    visits: await totalSiteVisits(db),
    events: (await db.selectFrom("events").select("id").execute()).length,
    revisions: (await db.selectFrom("news_revisions").select("id").execute()).length,
    imports: await db.selectFrom("firebase_imports").selectAll().orderBy("kind").orderBy("source_id").execute(),
    media: mediaFiles(),
  };
}

async function signIn(email: string, password: string): Promise<boolean> {
  const response = await createAuth(db, site).api.signInEmail({ body: { email, password }, asResponse: true });
  return response.ok;
}

async function storedPassword(uid: string): Promise<string | null> {
  const row = await db
    .selectFrom("account")
    .select("password")
    .where("userId", "=", uid)
    .where("providerId", "=", "credential")
    .executeTakeFirst();
  return row?.password ?? null;
}

describe("npm run import:firebase", () => {
  it("stops on a malformed file with a clear message before writing anything", async () => {
    const before = await snapshot();
    const broken = path.join(dir, "broken.json");
    writeFileSync(broken, '{"all-news": {"x": ');
    const notJson = await runScript("import-firebase", ["--firestore", broken], env);
    expect(notJson.code).toBe(1);
    expect(notJson.output).toContain("Nothing was imported. The Firestore export is not valid JSON");
    writeFileSync(broken, JSON.stringify({ "all-news": ["not", "documents"] }));
    const notCollections = await runScript("import-firebase", ["--firestore", broken], env);
    expect(notCollections.output).toContain('"all-news" is not a collection');
    const noHashConfig = await runScript(
      "import-firebase",
      ["--firestore", fixtures.firestoreA, "--auth", fixtures.auth],
      env,
    );
    expect(noHashConfig.code).toBe(1);
    expect(noHashConfig.output).toContain("--hash-config");
    for (const result of [notJson, notCollections, noHashConfig]) expect(result.output).not.toMatch(/\n\s+at /);
    expect(await snapshot()).toEqual(before);
  }, 60_000);

  it("--dry-run prints what it would do and writes nothing", async () => {
    const before = await snapshot();
    const result = await runScript("import-firebase", importArgs(fixtures.firestoreA, ["--dry-run"]), env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("Dry run: nothing was changed.");
    expect(result.output).toMatch(/articles\s+8\s+0\s+0\s+1/);
    expect(result.output).toMatch(/accounts\s+3\s+0\s+0\s+1/);
    expect(await snapshot()).toEqual(before);
    expect(before.news).toHaveLength(0);
  }, 60_000);

  it("imports articles with their ids, dates, visits, categories, media and short links", async () => {
    const result = await runScript("import-firebase", importArgs(fixtures.firestoreA), env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/articles\s+8\s+0\s+0\s+1/);
    expect(result.output).toContain(`[articles] ${FIXTURE.malformed.id}: malformed, skipped`);
    expect(result.output).toContain(`news/${FIXTURE.legacyMatched.id} = all-news/${FIXTURE.legacyMatched.matches}`);
    expect(result.output).toContain(`[media] ${FIXTURE.withMissingImage.id}:`);

    const article = await getArticle(db, FIXTURE.withImages.id);
    expect(article).toMatchObject({
      title: FIXTURE.withImages.title,
      category: "local",
      visits: 912,
      createdAt: "2024-03-02T09:15:00.000Z",
      updatedAt: "2024-03-03T10:00:00.000Z",
    });
    expect(article!.content).toContain("تفاصيل الخبر في فقرته الأولى");
    expect(article!.images).toHaveLength(2);
    for (const url of article!.images) {
      expect(url).toMatch(/^\/media\/news-images\/[0-9a-f]{16}-.*\.webp$/);
      const name = url.slice("/media/".length, -".webp".length);
      for (const variant of ["", "-400w", "-800w", "-1200w"])
        expect(existsSync(path.join(dir, "media", `${name}${variant}.webp`)), `${name}${variant}`).toBe(true);
    }
    expect((await getArticle(db, FIXTURE.withImageUrl.id))!.imageUrl).toMatch(/^\/media\/news-images\/.*\.webp$/);
    // The media library holds every imported image (decision 036), dated as its article, its size read.
    const library = await db.selectFrom("media").select(["url", "created_at", "width"]).execute();
    expect(library.map((row) => row.url)).toEqual(
      expect.arrayContaining([...article!.images, (await getArticle(db, FIXTURE.withImageUrl.id))!.imageUrl]),
    );
    expect(library.find((row) => row.url === article!.images[0])).toMatchObject({
      created_at: "2024-03-02T09:15:00.000Z",
      width: expect.any(Number),
    });
    const video = await getArticle(db, FIXTURE.withVideo.id);
    expect(video).toMatchObject({ isVideo: true, video: expect.stringMatching(/^\/media\/news-videos\/.*\.mp4$/) });
    expect((await getArticle(db, FIXTURE.withMissingImage.id))!.images).toEqual([FIXTURE.withMissingImage.missingUrl]);
    expect((await getArticle(db, FIXTURE.educatonal.id))!.category).toBe("educational");
    const categories = await db.selectFrom("news").select("category").distinct().execute();
    expect(categories.map((row) => row.category).sort()).toEqual([
      "advertisement",
      "breaking",
      "educational",
      "international",
      "local",
      "miscellaneous",
      "sports",
    ]);

    expect(await resolveShortLink(db, FIXTURE.withImages.shortId)).toBe(`/news/${FIXTURE.withImages.id}`);
    expect(await resolveShortLink(db, FIXTURE.withImageUrl.shortId)).toBe(`/news/${FIXTURE.withImageUrl.id}`);
    const withoutLink = await db
      .selectFrom("short_links")
      .select("short_id")
      .where("news_id", "=", FIXTURE.educatonal.id)
      .executeTakeFirst();
    expect(withoutLink?.short_id).toMatch(/^\d{6}$/);

    const legacy = await db
      .selectFrom("news")
      .select(["id", "status"])
      .where("id", "in", [FIXTURE.legacyPublished.id, FIXTURE.legacyDraft.id, FIXTURE.legacyMatched.id])
      .orderBy("id")
      .execute();
    expect(legacy).toEqual(
      [
        { id: FIXTURE.legacyPublished.id, status: "published" },
        { id: FIXTURE.legacyDraft.id, status: "draft" },
      ].sort((a, b) => a.id.localeCompare(b.id)),
    );
    expect(await db.selectFrom("news").select("id").execute()).toHaveLength(10);
    expect(await totalSiteVisits(db)).toBe(FIXTURE.siteVisits);

    const found = await searchNews(db, "مكتبة عامة");
    expect(found.results.map((item) => item.id)).toContain(FIXTURE.withImages.id);
    const events = await db
      .selectFrom("events")
      .select(["kind", "article_id"])
      .where("article_id", "=", FIXTURE.withImages.id)
      .execute();
    expect(events).toEqual([{ kind: "article-created", article_id: FIXTURE.withImages.id }]);
  }, 120_000);

  it("keeps each account's email, username, role and password, and rehashes the password at the first sign-in", async () => {
    const users = await db.selectFrom("user").select(["id", "email", "name", "role"]).orderBy("email").execute();
    expect(users).toEqual([
      { id: FIXTURE.admin.uid, email: FIXTURE.admin.email, name: FIXTURE.admin.username, role: "admin" },
      { id: FIXTURE.google.uid, email: FIXTURE.google.email, name: FIXTURE.google.username, role: "user" },
      { id: FIXTURE.reader.uid, email: FIXTURE.reader.email, name: FIXTURE.reader.username, role: "user" },
    ]);
    expect(await storedPassword(FIXTURE.google.uid)).toBeNull();
    expect(await storedPassword(FIXTURE.reader.uid)).toMatch(/^firebase-scrypt\$/);

    expect(await signIn(FIXTURE.reader.email, "not-the-password")).toBe(false);
    expect(await storedPassword(FIXTURE.reader.uid)).toMatch(/^firebase-scrypt\$/);
    expect(await signIn(FIXTURE.reader.email, FIXTURE.reader.password)).toBe(true);
    const rehashed = await storedPassword(FIXTURE.reader.uid);
    expect(rehashed).not.toMatch(/^firebase-scrypt/);
    expect(await signIn(FIXTURE.reader.email, FIXTURE.reader.password)).toBe(true);
    expect(await storedPassword(FIXTURE.reader.uid)).toBe(rehashed);
    expect(await signIn(FIXTURE.reader.email, "not-the-password")).toBe(false);
  }, 60_000);

  it("an account imported without a password (Google sign-in) can be given one", async () => {
    const result = await runScript("user", ["set-password", FIXTURE.google.email], env);
    expect(result.code, result.output).toBe(0);
    const password = /New password for \S+: (\S+)/.exec(result.output)?.[1];
    expect(password).toBeTruthy();
    expect(await signIn(FIXTURE.google.email, password!)).toBe(true);
  }, 60_000);

  it("a second run, from the other layout, changes nothing (and puts no old hash back)", async () => {
    const before = await snapshot();
    const result = await runScript("import-firebase", importArgs(fixtures.firestoreB), env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain("Firestore layout: node-firestore-import-export");
    expect(result.output).toMatch(/articles\s+0\s+0\s+8\s+1/);
    expect(result.output).toMatch(/accounts\s+0\s+0\s+3\s+1/);
    expect(result.output).toContain(`[media] ${FIXTURE.withMissingImage.id}:`);
    expect(await snapshot()).toEqual(before);
    expect(await signIn(FIXTURE.reader.email, FIXTURE.reader.password)).toBe(true);
  }, 60_000);

  it("a run after a change in Firebase updates that article only, keeping its revision", async () => {
    const changed = path.join(dir, "changed.json");
    const exported = JSON.parse((await import("node:fs")).readFileSync(fixtures.firestoreA, "utf8")) as Record<
      string,
      Record<string, Record<string, unknown>>
    >;
    exported["all-news"]![FIXTURE.educatonal.id]!.title = "نتائج الامتحانات الرسمية: النسخة المصححة";
    exported.visits!.siteStats!.totalVisits = FIXTURE.siteVisits + 10;
    writeFileSync(changed, JSON.stringify(exported));
    const result = await runScript("import-firebase", importArgs(changed), env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/articles\s+0\s+1\s+7\s+1/);
    expect((await getArticle(db, FIXTURE.educatonal.id))!.title).toBe("نتائج الامتحانات الرسمية: النسخة المصححة");
    expect(
      await db.selectFrom("news_revisions").select("title").where("news_id", "=", FIXTURE.educatonal.id).execute(),
    ).toEqual([{ title: FIXTURE.educatonal.title }]);
    expect(await totalSiteVisits(db)).toBe(FIXTURE.siteVisits + 10);
    expect(await db.selectFrom("news").select("id").execute()).toHaveLength(10);
  }, 60_000);

  it("leaves out an article deleted here for good since it was imported", async () => {
    await deleteArticle(db, FIXTURE.withImageUrl.id);
    const result = await runScript("import-firebase", importArgs(fixtures.firestoreA), env);
    expect(result.code, result.output).toBe(0);
    expect(result.output).toContain(
      `[articles] ${FIXTURE.withImageUrl.id}: imported before and deleted here since: left out`,
    );
    expect(await getArticle(db, FIXTURE.withImageUrl.id)).toBeNull();
  }, 60_000);
});
