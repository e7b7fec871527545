import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { getArticle } from "~/server/news/articles-read.server";
import { updateArticle } from "~/server/news/articles-write.server";
import { listRevisions } from "~/server/news/revisions.server";
import { searchNews } from "~/server/news/search-news.server";
import { readSiteSettings, writeSiteSettings } from "~/server/site-settings/site-settings.server";
import { demoSettings } from "~/server/demo/demo-settings";
import { viewOf } from "~/server/visits/view.server";
import { recordViews, totalSiteVisits } from "~/server/visits/visits.server";
import { signedInAs } from "../../harness/accounts";
import { createTestArticle } from "../../harness/articles";
import { createPostgresDatabase, onPostgres, type TempPostgres } from "../../harness/postgres";
import { runScript } from "../support/scripts";
import { startTestServer, type TestServer } from "../../harness/test-server";

const AUTH_SECRET = "db-copy-secret-db-copy-secret-db-copy-0123";
const servers: TestServer[] = [];
const databases: TempPostgres[] = [];
const connections: DB[] = [];
const folders: string[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const db of connections.splice(0)) await db.destroy();
  for (const database of databases.splice(0)) await database.drop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function emptyPostgres(): Promise<TempPostgres> {
  const database = await createPostgresDatabase("akhbar_pgops_copy_");
  databases.push(database);
  return database;
}

function connect(url: string): DB {
  const db = openDatabase(url);
  connections.push(db);
  return db;
}

/** A SQLite site served by a running server, with an admin signed in, articles, visits and short links. */
async function runningSqliteSite() {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-db-copy-"));
  folders.push(dir);
  const env = { DATABASE_URL: path.join(dir, "akhbar.db"), MEDIA_DIR: path.join(dir, "media"), AUTH_SECRET };
  const server = await startTestServer(env);
  servers.push(server);
  const db = connect(env.DATABASE_URL);
  const cookie = await signedInAs(
    db,
    { baseUrl: server.url, authSecret: AUTH_SECRET },
    { email: "desk@example.com", username: "المكتب", role: "admin" },
  );
  const published = await createTestArticle(db, {
    title: "بلدية طرابلس تفتتح الحديقة",
    content: "افتتحت البلدية حديقة عامة",
  });
  const draft = await createTestArticle(db, { title: "مسودة عن الانتخابات", status: "draft" });
  // Two saves keep two earlier versions of the draft.
  for (const title of ["مسودة عن الانتخابات البلدية", "مسودة عن الانتخابات البلدية في طرابلس"]) {
    await updateArticle(db, draft.id, {
      title,
      content: "نص",
      category: "local",
      status: "draft",
      imageUrl: null,
      images: [],
      video: null,
    });
  }
  // Three readers' views (decision 039): the counts, the hourly and daily figures and the bound's rows go with the site.
  const views = ["203.0.113.1", "203.0.113.2", "203.0.113.3"].flatMap((address, i) =>
    [published.id, null].map((newsId) =>
      viewOf(AUTH_SECRET, {
        newsId,
        reader: `copied-reader-000${i}`,
        address,
        source: "facebook",
        device: "phone",
        at: new Date(),
      }),
    ),
  );
  await recordViews(db, views);
  await writeSiteSettings(db, { ...demoSettings, name: "صدى الشمال" }, null);
  // The media library (decision 036): an image with its focal point, and a video's poster.
  await db
    .insertInto("media")
    .values({
      url: "/media/news-images/00000000000000aa-port.webp",
      uploaded_by: null,
      created_at: "2026-01-02T10:00:00.000Z",
      width: 800,
      height: 1000,
      caption: "المرفأ",
      focal_x: 0.25,
      focal_y: 0.75,
    })
    .execute();
  await db
    .insertInto("video_posters")
    .values({
      news_id: published.id,
      video_url: "/media/news-videos/00000000000000bb.mp4",
      poster_url: "/media/news-images/00000000000000aa-port.webp",
      set_by: null,
      set_at: "2026-01-02T10:00:00.000Z",
    })
    .execute();
  // Web Push (decision 037): the site's key pair and a reader's subscription go with the site.
  // The server made its pair at start: the site's pair is this one.
  const keys = { public_key: "BPublicKey", private_key: "privateKey", created_at: "2026-01-02T10:00:00.000Z" };
  await db
    .insertInto("push_keys")
    .values({ id: 1, ...keys })
    .onConflict((conflict) => conflict.column("id").doUpdateSet(keys))
    .execute();
  await db
    .insertInto("push_subscriptions")
    .values({
      endpoint: "https://push.example/abc",
      p256dh: "BKey",
      auth: "secret",
      categories: '["local"]',
      created_at: "2026-01-02T10:00:00.000Z",
    })
    .execute();
  return { server, env, cookie, published, draft };
}

describe.runIf(onPostgres)("npm run db:copy", () => {
  it(
    "moves a running SQLite site into PostgreSQL: articles, short links, visits, search and signed-in sessions",
    { timeout: 120_000 },
    async () => {
      const site = await runningSqliteSite();
      const target = await emptyPostgres();

      const copy = await runScript("db-copy", ["--to", target.url], site.env);
      expect(copy.output).toContain("Row counts match");
      expect(copy.code).toBe(0);
      expect(copy.output).toMatch(/\| news \| 2 \|/);
      expect(copy.output).toMatch(/\| news_revisions \| 2 \|/);
      expect(copy.output).toMatch(/\| media \| 1 \|/);
      expect(copy.output).toMatch(/\| video_posters \| 1 \|/);
      expect(copy.output).toMatch(/\| push_subscriptions \| 1 \|/);
      expect(copy.output).toMatch(/\| stats_daily \| 1 \|/);
      expect(copy.output).toMatch(/\| stats_hourly \| 1 \|/);
      expect(copy.output).toMatch(/\| visit_allowances \| 6 \|/);
      expect(copy.output).toContain(`DATABASE_URL=${target.url}`);
      expect(copy.output).toContain(`MEDIA_DIR=${site.env.MEDIA_DIR}`);

      const copied = connect(target.url);
      expect((await getArticle(copied, site.published.id))?.visits).toBe(3);
      expect(await totalSiteVisits(copied)).toBe(3);
      expect(await copied.selectFrom("stats_daily").select(["news_id", "source", "device", "views"]).execute()).toEqual(
        [{ news_id: site.published.id, source: "facebook", device: "phone", views: 3 }],
      );
      expect((await readSiteSettings(copied)).settings.name).toBe("صدى الشمال");
      // Revisions keep their order: the newest first, as on the source.
      expect((await listRevisions(copied, site.draft.id)).map((revision) => revision.title)).toEqual([
        "مسودة عن الانتخابات البلدية",
        "مسودة عن الانتخابات",
      ]);
      expect((await searchNews(copied, "بلديه")).results.map((result) => result.id)).toEqual([site.published.id]);
      // The outbox is not site data: the source has events, the target starts its own.
      expect(await copied.selectFrom("events").select("id").execute()).toEqual([]);
      expect(
        await copied.selectFrom("push_subscriptions").select(["endpoint", "p256dh", "auth", "categories"]).execute(),
      ).toEqual([{ endpoint: "https://push.example/abc", p256dh: "BKey", auth: "secret", categories: '["local"]' }]);
      expect(await copied.selectFrom("push_keys").select(["public_key", "private_key"]).execute()).toEqual([
        { public_key: "BPublicKey", private_key: "privateKey" },
      ]);
      expect(
        await copied.selectFrom("media").select(["caption", "focal_x", "focal_y", "created_at"]).execute(),
      ).toEqual([{ caption: "المرفأ", focal_x: 0.25, focal_y: 0.75, created_at: "2026-01-02T10:00:00.000Z" }]);

      await site.server.stop();
      const moved = await startTestServer({ DATABASE_URL: target.url, MEDIA_DIR: site.env.MEDIA_DIR, AUTH_SECRET });
      servers.push(moved);
      const dashboard = await fetch(`${moved.url}/dashboard`, { headers: { cookie: site.cookie }, redirect: "manual" });
      expect(dashboard.status).toBe(200);
      const draftPage = await fetch(`${moved.url}/news/${site.draft.id}`, { headers: { cookie: site.cookie } });
      expect(draftPage.status).toBe(200);
      const shortLink = await fetch(`${moved.url}/${site.published.shortId}`, { redirect: "manual" });
      expect(shortLink.status).toBe(301);
      expect(shortLink.headers.get("location")).toMatch(new RegExp(`^/news/${site.published.id}/[^/]+$`));
      expect((await fetch(`${moved.url}/dashboard`, { redirect: "manual" })).status).not.toBe(200);
    },
  );

  it("refuses a database that already holds a site or another application's tables, and changes nothing there", async () => {
    const site = await runningSqliteSite();
    const used = await emptyPostgres();
    expect((await runScript("db-copy", ["--to", used.url], site.env)).code).toBe(0);
    const again = await runScript("db-copy", ["--to", used.url], site.env);
    expect(again.code).toBe(1);
    expect(again.output).toContain("not empty");
    expect(await connect(used.url).selectFrom("news").select("id").execute()).toHaveLength(2);

    const foreign = await emptyPostgres();
    const other = connect(foreign.url);
    await other.schema.createTable("invoices").addColumn("id", "integer").execute();
    const refused = await runScript("db-copy", ["--to", foreign.url], site.env);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain("invoices");
    expect((await other.introspection.getTables()).map((table) => table.name)).toEqual(["invoices"]);
  });
});
