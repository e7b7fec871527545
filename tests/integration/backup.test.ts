import { createECDH } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openDatabase } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import { signedInAs } from "../../harness/accounts";
import { onPostgres, postgresUrl } from "../../harness/postgres";
import { viewOf } from "~/server/visits/view.server";
import { recordViews } from "~/server/visits/visits.server";
import { createTestArticle, publishArticle } from "../../harness/articles";
import { runScript } from "../support/scripts";
import { freePort, startTestServer, type TestServer } from "../../harness/test-server";

const folders: string[] = [];
const servers: TestServer[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "akhbar-backup-"));
  folders.push(dir);
  return dir;
}

function integrity(file: string): unknown {
  const database = new SQLite(file, { readonly: true });
  try {
    return database.pragma("integrity_check", { simple: true });
  } finally {
    database.close();
  }
}

describe("on PostgreSQL, npm run backup / npm run restore", () => {
  it.runIf(onPostgres)("refuse and name PostgreSQL's own tools", async () => {
    const env = { DATABASE_URL: postgresUrl("akhbar_site"), MEDIA_DIR: path.join(folder(), "media") };
    const backup = await runScript("backup", [path.join(folder(), "copy")], env);
    expect(backup.code).toBe(1);
    expect(backup.output).toContain("pg_dump");
    const restore = await runScript("restore", [folder()], env);
    expect(restore.code).toBe(1);
    expect(restore.output).toContain("pg_restore");
  });
});

// They copy SQLite files; on PostgreSQL they refuse (above).
describe.skipIf(onPostgres)("npm run backup / npm run restore (SQLite only: they copy the database file)", () => {
  it("backs up a running site during writes and restores it into a fresh folder: every article, its media and the sessions", async () => {
    const server = await startTestServer();
    servers.push(server);
    const { url, env } = server;
    const db = openDatabase(env.DATABASE_URL);
    const cookie = await signedInAs(
      db,
      { baseUrl: url, authSecret: env.AUTH_SECRET },
      { email: "desk@example.com", username: "المكتب", role: "admin" },
    );
    // A reader's Web Push subscription and the site's key pair (decision 037) are site data too.
    const subscription = {
      endpoint: "https://push.example/reader",
      keys: {
        p256dh: createECDH("prime256v1").generateKeys().toString("base64url"),
        auth: Buffer.alloc(16, 7).toString("base64url"),
      },
    };
    const subscribed = await fetch(`${url}/api/push/subscriptions`, {
      method: "POST",
      body: JSON.stringify({ subscription, categories: ["sports"] }),
      headers: { "content-type": "application/json", origin: url },
    });
    expect(subscribed.status).toBe(201);
    const publicKey = ((await (await fetch(`${url}/api/push/key`)).json()) as { publicKey: string }).publicKey;
    // A reader's view (decision 039): its count and its daily figure by source and device go with the backup.
    const read = await createTestArticle(db, { title: "خبر مقروء" });
    await recordViews(db, [
      viewOf(env.AUTH_SECRET, {
        newsId: read.id,
        reader: "backed-up-reader-0001",
        address: "203.0.113.5",
        source: "telegram",
        device: "tablet",
        at: new Date(),
      }),
    ]);
    await db.destroy();

    const committed: string[] = [];
    let fifthCommitted = () => {};
    const fiveCommitted = new Promise<void>((resolve) => (fifthCommitted = resolve));
    const publish = async (n: number) => {
      committed.push(await publishArticle(url, { cookie }, { title: `خبر ${n}`, image: { width: 64, height: 48 } }));
      if (committed.length === 5) fifthCommitted();
    };
    for (let n = 0; n < 3; n++) await publish(n);
    let writing = true;
    const writer = (async () => {
      for (let n = 3; writing; n++) await publish(n);
    })();
    await fiveCommitted;

    const backupDir = path.join(folder(), "backup");
    const beforeBackup = [...committed];
    const backup = await runScript("backup", [backupDir], env);
    writing = false;
    await writer;
    expect(backup.output).toMatch(/Backed up \d+ articles/);
    expect(backup.code).toBe(0);

    const fresh = folder();
    const site = {
      DATABASE_URL: path.join(fresh, "data", "akhbar.db"),
      MEDIA_DIR: path.join(fresh, "data", "media"),
      AUTH_SECRET: env.AUTH_SECRET,
    };
    const whileRunning = await runScript("restore", [backupDir], { ...site, HOST: "127.0.0.1", PORT: env.PORT });
    expect(whileRunning.code).toBe(1);
    expect(whileRunning.output).toContain("Stop it before restoring");

    const port = String(await freePort());
    const restore = await runScript("restore", [backupDir], { ...site, PORT: port });
    expect(restore.output).toMatch(/Restored \d+ articles/);
    expect(restore.code).toBe(0);
    const again = await runScript("restore", [backupDir], { ...site, PORT: port });
    expect(again.code).toBe(1);
    expect(again.output).toContain("--force");
    expect((await runScript("restore", [backupDir, "--force"], { ...site, PORT: port })).code).toBe(0);
    expect(integrity(site.DATABASE_URL)).toBe("ok");

    const restored = await startTestServer(site);
    servers.push(restored);
    const restoredDb = openDatabase(site.DATABASE_URL);
    for (const id of beforeBackup) {
      expect((await fetch(`${restored.url}/news/${id}`)).status).toBe(200);
      const { images } = await restoredDb
        .selectFrom("news")
        .select("images")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      const [image] = JSON.parse(images) as string[];
      const media = await fetch(`${restored.url}${image}`);
      expect(media.status).toBe(200);
      expect(media.headers.get("content-type")).toMatch(/^image\//);
    }
    expect(await restoredDb.selectFrom("push_subscriptions").select(["endpoint", "categories"]).execute()).toEqual([
      { endpoint: subscription.endpoint, categories: '["sports"]' },
    ]);
    expect(
      await restoredDb.selectFrom("stats_daily").select(["news_id", "source", "device", "views"]).execute(),
    ).toEqual([{ news_id: read.id, source: "telegram", device: "tablet", views: 1 }]);
    await restoredDb.destroy();
    expect(((await (await fetch(`${restored.url}/api/push/key`)).json()) as { publicKey: string }).publicKey).toBe(
      publicKey,
    );
    expect((await fetch(`${restored.url}/dashboard`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
  }, 60_000);

  it("keeps the generated auth secret with the backup and puts it back, and leaves uploads still staging out", async () => {
    const original = folder();
    mkdirSync(path.join(original, "data", "media", ".staging", "upload-1"), { recursive: true });
    writeFileSync(path.join(original, "data", "media", ".staging", "upload-1", "half.png"), "partial");
    writeFileSync(path.join(original, "data", "media", "photo.png"), "image bytes");
    writeFileSync(path.join(original, "data", "auth-secret"), "a".repeat(64), { mode: 0o600 });
    const db = openDatabase(path.join(original, "data", "akhbar.db"));
    await migrateToLatest(db);
    await db.destroy();
    const noEnvSecret = {
      AUTH_SECRET: "",
      DATABASE_URL: "./data/akhbar.db",
      MEDIA_DIR: "./data/media",
      PORT: String(await freePort()),
    };

    const backupDir = path.join(folder(), "backup");
    expect((await runScript("backup", [backupDir], noEnvSecret, original)).code).toBe(0);
    const target = folder();
    const restore = await runScript("restore", [backupDir], noEnvSecret, target);
    expect(restore.code).toBe(0);
    expect(readFileSync(path.join(target, "data", "auth-secret"), "utf8")).toBe("a".repeat(64));
    expect(readFileSync(path.join(target, "data", "media", "photo.png"), "utf8")).toBe("image bytes");
    expect(() => readFileSync(path.join(target, "data", "media", ".staging", "upload-1", "half.png"))).toThrow();
  });

  it("says that media kept in a bucket are not in the backup nor restored", async () => {
    const site = folder();
    const db = openDatabase(path.join(site, "akhbar.db"));
    await migrateToLatest(db);
    await db.destroy();
    const env = {
      DATABASE_URL: path.join(site, "akhbar.db"),
      MEDIA_DIR: path.join(site, "media"),
      MEDIA_S3_BUCKET: "akhbar-media",
      PORT: String(await freePort()),
    };
    const backupDir = path.join(folder(), "backup");
    const backup = await runScript("backup", [backupDir], env);
    expect(backup.code).toBe(0);
    expect(backup.output).toContain(
      "Media are kept in the bucket akhbar-media (MEDIA_S3_BUCKET) and are not part of this backup",
    );
    const restore = await runScript("restore", [backupDir], {
      ...env,
      DATABASE_URL: path.join(folder(), "restored.db"),
    });
    expect(restore.code).toBe(0);
    expect(restore.output).toContain("Media are kept in the bucket akhbar-media");
  });
});
