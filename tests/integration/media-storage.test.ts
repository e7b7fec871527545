import { existsSync, mkdirSync, readdirSync, statfsSync, utimesSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "~/lib/error-body";
import { messages } from "~/lib/messages";
import { openDatabase } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { articleForm, type UploadedFile } from "../../harness/articles";
import { mp4Bytes, pngBytes } from "../../harness/fixtures";
import { mountSmallDisk, type SmallDisk } from "../support/small-disk";
import { createEmptyDatabase } from "../../harness/temp-db";
import { startTestServer } from "../../harness/test-server";
import { stopServerAndDb } from "../support/server-and-db";

const ARTICLE = { title: "خبر بصورة وفيديو", content: "نص الخبر.", category: "local", status: "published" };
type Answer = { status: number; json: { id?: string } & Partial<ErrorBody> };

/** A server over its own database (kept apart from the server's, so a restart finds it) and admin session. */
async function startSite(env: Record<string, string> = {}) {
  const database = await createEmptyDatabase();
  const siteEnv = { DATABASE_URL: database.url, ...env };
  let server = await startTestServer(siteEnv);
  const db = openDatabase(server.env.DATABASE_URL);
  const cookie = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب", role: "admin" });
  const send = async (
    method: string,
    pathname: string,
    body?: BodyInit,
    headers: Record<string, string> = {},
  ): Promise<Answer> => {
    const response = await fetch(`${server.url}${pathname}`, {
      method,
      body,
      headers: { cookie, ...headers },
      signal: AbortSignal.timeout(20_000),
    });
    return { status: response.status, json: (await response.json()) as Answer["json"] };
  };
  return {
    get server() {
      return server;
    },
    db,
    mediaDir: server.env.MEDIA_DIR,
    publish: (fields: Record<string, string>, files: UploadedFile[] = []) =>
      send("POST", "/api/news", articleForm({ ...ARTICLE, ...fields }, files)),
    send,
    row: (id: string) => db.selectFrom("news").select(["images", "video"]).where("id", "=", id).executeTakeFirst(),
    restart: async () => {
      await server.stop();
      server = await startTestServer(siteEnv);
    },
    close: async () => {
      await stopServerAndDb({ server, db });
      await database.drop();
    },
  };
}
type Site = Awaited<ReturnType<typeof startSite>>;

/** Every file (not folder) under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

describe("stored names", () => {
  let site: Site;
  beforeAll(async () => {
    site = await startSite();
  });
  afterAll(() => site.close());

  const image = async (width: number): Promise<UploadedFile> => ({
    field: "images",
    name: "صورة.jpg",
    bytes: await pngBytes(width, 100),
  });
  const video = (size: number): UploadedFile => ({
    field: "video",
    name: "فيديو.mp4",
    bytes: mp4Bytes(size),
    type: "video/mp4",
  });

  it("concurrent publishes of the same Arabic file names never share a file, and deleting one keeps the other's media", async () => {
    // Each article's image width and video size are its own, so a served file tells whose it is.
    const pairs = await Promise.all(
      Array.from({ length: 20 }, (_, pair) =>
        Promise.all(
          [0, 1].map(async (member) => {
            const n = pair * 2 + member;
            const { status, json } = await site.publish({ title: `خبر ${n}` }, [
              await image(200 + n),
              video(5_000 + n),
            ]);
            expect(status).toBe(201);
            const row = (await site.row(json.id!))!;
            return { id: json.id!, n, image: JSON.parse(row.images)[0] as string, video: row.video! };
          }),
        ),
      ),
    );
    const urls = pairs.flat().flatMap((a) => [a.image, a.video]);
    expect(new Set(urls).size).toBe(urls.length);
    for (const article of pairs.flat()) {
      const served = Buffer.from(await (await fetch(`${site.server.url}${article.image}`)).arrayBuffer());
      expect((await sharp(served).metadata()).width).toBe(200 + article.n);
    }
    for (const [first] of pairs) expect((await site.send("DELETE", `/api/news/${first!.id}`)).status).toBe(200);
    for (const [, second] of pairs) {
      const response = await fetch(`${site.server.url}${second!.video}`);
      expect(response.status).toBe(200);
      expect((await response.arrayBuffer()).byteLength).toBe(5_000 + second!.n);
    }
  });

  it("a form submitted twice at once publishes once, and the refused copy never deletes the accepted one's media", async () => {
    await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const fields = {
          title: `إرسال مزدوج ${i}`,
          submissionId: `5d1c1a52-0000-4000-8000-${String(i).padStart(12, "0")}`,
        };
        const files = [await image(300), video(6_000)];
        const answers = await Promise.all([site.publish(fields, files), site.publish(fields, files)]);
        expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
        const accepted = (await site.row(answers.find((a) => a.status === 201)!.json.id!))!;
        for (const url of [...(JSON.parse(accepted.images) as string[]), accepted.video!]) {
          expect((await fetch(`${site.server.url}${url}`)).status, url).toBe(200);
        }
      }),
    );
  });

  it("a multipart body without a boundary, or another malformed content type, is a 400 that leaves no staging folder", async () => {
    for (const contentType of [
      "multipart/form-data",
      "multipart/form-data; boundary=",
      'multipart/form-data; boundary="open',
      "multipart/mixed; boundary=x",
    ]) {
      const answer = await site.send("POST", "/api/news", "title=x", { "content-type": contentType });
      expect(answer.status, contentType).toBe(400);
      expect(answer.json.error?.message, contentType).toBe(messages.formMalformed);
    }
    expect(
      existsSync(path.join(site.mediaDir, ".staging")) ? readdirSync(path.join(site.mediaDir, ".staging")) : [],
    ).toEqual([]);
  });
});

describe("a disk that refuses", () => {
  let disk: SmallDisk;
  let site: Site | undefined;
  afterEach(async () => {
    await site?.close();
    site = undefined;
    disk.remove();
  });

  it("a full disk answers 507 within seconds with the Arabic message and leaves the disk as it was; text still publishes", async () => {
    disk = mountSmallDisk(2 * 1024 * 1024);
    site = await startSite({ MEDIA_DIR: disk.dir });
    const free = statfsSync(disk.dir).bfree;
    const started = Date.now();
    const answer = await site.publish({}, [
      { field: "video", name: "clip.mp4", bytes: mp4Bytes(5 * 1024 * 1024), type: "video/mp4" },
    ]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(answer.status).toBe(507);
    expect(answer.json.error?.message).toBe(messages.storageFull);
    expect(filesUnder(disk.dir)).toEqual([]);
    expect(statfsSync(disk.dir).bfree).toBe(free);
    expect((await site.publish({ title: "خبر نصي على قرص ممتلئ" })).status).toBe(201);
  });

  it("a missing or read-only media folder still publishes text; files cannot be stored (503); the start 30 days after a delete deletes the article for good, its image kept in the media library", async () => {
    disk = mountSmallDisk(8 * 1024 * 1024);
    const mediaDir = path.join(disk.dir, "media");
    site = await startSite({ MEDIA_DIR: mediaDir });
    expect((await site.publish({ title: "خبر نصي" })).status).toBe(201);
    const urlencoded = await site.send(
      "POST",
      "/api/news",
      new URLSearchParams({ ...ARTICLE, title: "خبر من نموذج بسيط" }),
    );
    expect(urlencoded.status).toBe(201);
    expect(existsSync(mediaDir)).toBe(false); // text needs no folder, not even for staging

    const illustrated = await site.publish({ title: "خبر بصورة" }, [
      { field: "images", name: "photo.png", bytes: await pngBytes() },
    ]);
    expect(illustrated.status).toBe(201);
    disk.readOnly();
    expect((await site.publish({ title: "خبر نصي على قرص للقراءة فقط" })).status).toBe(201);
    const refused = await site.publish({ title: "صورة على قرص للقراءة فقط" }, [
      { field: "images", name: "photo.png", bytes: await pngBytes() },
    ]);
    expect(refused.status).toBe(503);
    expect(refused.json.error?.message).toBe(messages.storageUnavailable);
    const deleted = await site.send("DELETE", `/api/news/${illustrated.json.id}`);
    expect(deleted.status).toBe(200);
    expect(filesUnder(path.join(mediaDir, "news-images"))).toHaveLength(4);

    // The next start, 30 days later: the article in the trash is deleted for good and a crash's staging goes; its image stays in the media library (decision 036).
    disk.writable();
    const monthAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    await site.db.updateTable("news").set({ deleted_at: monthAgo }).where("id", "=", illustrated.json.id!).execute();
    const anHourAgo = new Date(Date.now() - 61 * 60 * 1000);
    for (const name of filesUnder(path.join(mediaDir, "news-images")))
      utimesSync(path.join(mediaDir, "news-images", name), anHourAgo, anHourAgo);
    mkdirSync(path.join(mediaDir, ".staging", "1-crash"), { recursive: true });
    writeFileSync(path.join(mediaDir, ".staging", "1-crash", "0"), Buffer.alloc(100_000));
    await site.restart();
    expect(await site.row(illustrated.json.id!)).toBeUndefined();
    expect(filesUnder(path.join(mediaDir, "news-images"))).toHaveLength(4);
    expect(existsSync(path.join(mediaDir, ".staging"))).toBe(false);
  });
});
