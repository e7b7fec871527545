import { randomFillSync } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { CACHE } from "~/server/platform/cache-control.server";
import type { DB } from "~/server/db/db.server";
import { localStorage } from "~/server/media/local-storage.server";
import { mediaNamesOf, storeImage } from "~/server/media/media.server";
import { mediaNameOf } from "~/server/media/storage.server";
import { signedInAs } from "../../harness/accounts";
import { articleForm, canonicalPath } from "../../harness/articles";
import { mp4Bytes, pngBytes } from "../../harness/fixtures";
import { sha256, startTestBucket, type TestBucket } from "../support/s3rver";
import { freePort, refusedStart as refusedStartIn, startTestServer, type TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

const ARTICLE = { title: "خبر في الحاوية", content: "نص الخبر.", category: "local", status: "published" };

/** A video whose filler is random, big enough to go up in two parts. */
function videoBytes(size: number): Buffer {
  const bytes = mp4Bytes(size);
  randomFillSync(bytes, 32);
  return bytes;
}

const bytesOf = async (response: Response) => Buffer.from(await response.arrayBuffer());

describe("the real server with media in an S3-compatible bucket", () => {
  let bucket: TestBucket;
  let server: TestServer;
  let db: DB;
  let cookie: string;
  const png = pngBytes(1700, 900, "#e9c46a");
  const video = videoBytes(9 * 1024 * 1024 + 4_321);
  let article: { id: string; image: string; video: string };

  beforeAll(async () => {
    bucket = await startTestBucket();
    ({ server, db } = await startServerAndDb(bucket.env));
    cookie = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب", role: "admin" });
  });
  afterAll(async () => {
    await stopServerAndDb({ server, db });
    await bucket?.stop();
  });

  const get = (pathname: string, headers: Record<string, string> = {}, method = "GET") =>
    fetch(`${server.url}${pathname}`, { method, headers, redirect: "manual", signal: AbortSignal.timeout(20_000) });

  it("publishes an image and a video into the bucket, not the media folder, with the media URLs of the folder", async () => {
    const form = articleForm(ARTICLE, [
      { field: "images", name: "صورة.png", bytes: await png },
      { field: "video", name: "clip.mp4", bytes: video, type: "video/mp4" },
    ]);
    const response = await fetch(`${server.url}/api/news`, {
      method: "POST",
      body: form,
      headers: { cookie, origin: server.url },
    });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    const row = await db.selectFrom("news").select(["images", "video"]).where("id", "=", id).executeTakeFirstOrThrow();
    article = { id, image: (JSON.parse(row.images) as string[])[0]!, video: row.video! };
    expect(article.image).toMatch(/^\/media\/news-images\/[0-9a-f]{16}\.webp$/);
    expect(article.video).toMatch(/^\/media\/news-videos\/[0-9a-f]{16}-clip\.mp4$/);
    expect(await bucket.keys()).toEqual([...mediaNamesOf(article.image), mediaNameOf(article.video)!].sort());
    expect(sha256(await bucket.bytes(mediaNameOf(article.video)!))).toBe(sha256(video));
    const mediaDir = server.env.MEDIA_DIR;
    const left = existsSync(mediaDir)
      ? readdirSync(mediaDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
      : [];
    expect(left).toEqual([]); // staged uploads are gone, and nothing was stored locally
  });

  it("the article page shows the media, with the share image's size read from the bucket", async () => {
    const page = await (await get(await canonicalPath(db, article.id))).text();
    const base = article.image.slice(0, -".webp".length);
    expect(page).toContain(`${base}-800w.webp`);
    expect(page).toContain(article.video);
    expect(page).toMatch(new RegExp(`property="og:image" content="[^"]*${base}-1200w\\.webp"`));
    expect(page).toContain('property="og:image:width" content="1200"');
  });

  it("serves every stored file through /media with the bytes the local folder would hold, cached for a year", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "akhbar-local-twin-"));
    try {
      const twin = await storeImage(localStorage(dir), await png, "twin.png");
      const twinFiles = mediaNamesOf(twin).map((name) => readFileSync(path.join(dir, name)));
      for (const [i, url] of mediaNamesOf(article.image)
        .map((name) => `/media/${name}`)
        .entries()) {
        const response = await get(url);
        expect(response.status, url).toBe(200);
        expect(response.headers.get("content-type"), url).toBe("image/webp");
        expect(response.headers.get("cache-control"), url).toBe(CACHE.media);
        expect(sha256(await bytesOf(response)), url).toBe(sha256(twinFiles[i]!));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const whole = await get(article.video);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-length")).toBe(String(video.length));
    expect(whole.headers.get("etag")).toBeTruthy();
    expect(sha256(await bytesOf(whole))).toBe(sha256(video));
  });

  it("answers byte ranges with 206 and the exact bytes, and 416 for a range past the end", async () => {
    const size = video.length;
    const cases: [string, number, number][] = [
      ["bytes=0-1023", 0, 1023],
      ["bytes=4000000-5999999", 4_000_000, 5_999_999],
      ["bytes=-2048", size - 2048, size - 1],
      [`bytes=${size - 5000}-`, size - 5000, size - 1],
      [`bytes=${size - 10}-${size + 1000}`, size - 10, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const response = await get(article.video, { range });
      expect(response.status, range).toBe(206);
      expect(response.headers.get("content-range"), range).toBe(`bytes ${start}-${end}/${size}`);
      expect(response.headers.get("content-length"), range).toBe(String(end - start + 1));
      expect(sha256(await bytesOf(response)), range).toBe(sha256(video.subarray(start, end + 1)));
    }
    for (const range of [`bytes=${size}-`, `bytes=${size + 10}-${size + 20}`, "bytes=-0"]) {
      const response = await get(article.video, { range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get("content-range"), range).toBe(`bytes */${size}`);
    }
    // Ranges it may ignore: the whole file.
    for (const range of ["bytes=0-1,5-9", "bytes=9-5", "pages=1-2"]) {
      const response = await get(article.video, { range });
      expect(response.status, range).toBe(200);
      expect(Number(response.headers.get("content-length")), range).toBe(size);
      await response.arrayBuffer();
    }
  });

  it("answers HEAD and a current copy (304) without the body", async () => {
    const head = await get(article.video, {}, "HEAD");
    expect(head.status).toBe(200);
    expect(head.headers.get("content-length")).toBe(String(video.length));
    expect(head.headers.get("content-type")).toBe("video/mp4");
    const etag = head.headers.get("etag")!;
    const fresh = await get(article.video, { "if-none-match": etag });
    expect(fresh.status).toBe(304);
    expect(fresh.headers.get("cache-control")).toBe(CACHE.media);
    expect((await get(article.video, { "if-none-match": '"another"' })).status).toBe(200);
    expect((await get(article.video, { "if-modified-since": head.headers.get("last-modified")! })).status).toBe(304);
  });

  it("a missing object or a name we never store is a 404, never a 500", async () => {
    for (const pathname of [
      "/media/news-images/0000000000000000.webp",
      "/media/news-images/",
      "/media/..%2Fauth-secret",
      "/media/.staging/1/0",
      "/media/news-images/%E0%A4%A",
      "/media/news-images/a%00b.webp",
      `/media/${"a/".repeat(10)}x.webp`,
      `/media/${"x".repeat(3000)}`,
    ]) {
      const response = await get(pathname);
      expect(response.status, pathname).toBe(404);
      await response.arrayBuffer();
    }
    expect((await get("/media/news-images/0000000000000000.webp", {}, "HEAD")).status).toBe(404);
    expect((await get("/media/news-images/0000000000000000.webp", { range: "bytes=0-10" })).status).toBe(404);
  });

  it("deleting the article keeps its media in the trash; deleting it for good removes its video's object, and deleting its image from the media library the image's", async () => {
    const response = await fetch(`${server.url}/api/news/${article.id}`, {
      method: "DELETE",
      headers: { cookie, origin: server.url },
    });
    expect(response.status).toBe(200);
    expect(await bucket.keys()).not.toEqual([]);
    const forGood = await fetch(`${server.url}/dashboard/trash`, {
      method: "POST",
      body: new URLSearchParams({ id: article.id, intent: "delete" }),
      redirect: "manual",
      headers: { cookie, origin: server.url },
    });
    expect(forGood.status).toBe(302);
    expect(await bucket.keys()).toEqual(mediaNamesOf(article.image).sort());
    expect((await get(article.video)).status).toBe(404);
    const fromLibrary = await fetch(`${server.url}/dashboard/media`, {
      method: "POST",
      body: new URLSearchParams({ url: article.image, intent: "delete" }),
      redirect: "manual",
      headers: { cookie, origin: server.url },
    });
    expect(fromLibrary.status).toBe(200);
    expect(await bucket.keys()).toEqual([]);
  });
});

describe("a bucket that stops answering while the server runs", () => {
  let bucket: TestBucket;
  let server: TestServer;
  let db: DB;
  let cookie: string;
  beforeAll(async () => {
    bucket = await startTestBucket();
    ({ server, db } = await startServerAndDb(bucket.env));
    cookie = await signedInAs(db, server.site, { email: "desk@example.com", username: "مكتب", role: "admin" });
    await bucket.stop();
  });
  afterAll(() => stopServerAndDb({ server, db }));

  const publish = async (files: Parameters<typeof articleForm>[1]) => {
    const response = await fetch(`${server.url}/api/news`, {
      method: "POST",
      body: articleForm(ARTICLE, files),
      headers: { cookie, origin: server.url },
    });
    return { status: response.status, body: (await response.json()) as { error?: { message: string } } };
  };

  it("an upload answers 503 with the Arabic message and leaves no staged file; text still publishes; media answer 503", async () => {
    const refused = await publish([{ field: "images", name: "photo.png", bytes: await pngBytes() }]);
    expect(refused.status).toBe(503);
    expect(refused.body.error?.message).toBe(messages.storageUnavailable);
    const video = await publish([{ field: "video", name: "clip.mp4", bytes: videoBytes(200_000), type: "video/mp4" }]);
    expect(video.status).toBe(503);
    const mediaDir = server.env.MEDIA_DIR;
    expect(
      existsSync(mediaDir)
        ? readdirSync(mediaDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
        : [],
    ).toEqual([]);
    expect((await publish([])).status).toBe(201);
    const media = await fetch(`${server.url}/media/news-images/0123456789abcdef.webp`);
    expect(media.status).toBe(503);
    expect(media.headers.get("cache-control")).toBe(CACHE.never);
  });
});

describe("media behind MEDIA_PUBLIC_URL", () => {
  let bucket: TestBucket;
  let server: TestServer;
  beforeAll(async () => {
    bucket = await startTestBucket();
    server = await startTestServer({ ...bucket.env, MEDIA_PUBLIC_URL: "https://media.example.com/akhbar/" });
  });
  afterAll(async () => {
    await server?.stop();
    await bucket?.stop();
  });

  it("redirects /media/<name> to the same name under the public URL, cached for a day; a bad name is still a 404", async () => {
    const response = await fetch(`${server.url}/media/news-images/0123456789abcdef-photo-800w.webp`, {
      redirect: "manual",
    });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(
      "https://media.example.com/akhbar/news-images/0123456789abcdef-photo-800w.webp",
    );
    expect(response.headers.get("cache-control")).toBe(CACHE.mediaRedirect);
    expect((await fetch(`${server.url}/media/..%2F..%2Fetc%2Fpasswd`, { redirect: "manual" })).status).toBe(404);
  });
});

describe("a bucket the server cannot use stops the start with a clear message", () => {
  let bucket: TestBucket;
  let dir: string;
  beforeAll(async () => {
    bucket = await startTestBucket();
    dir = mkdtempSync(path.join(tmpdir(), "akhbar-s3-config-"));
  });
  afterAll(async () => {
    await bucket?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const refusedStart = (env: Record<string, string>) => refusedStartIn(dir, env);

  it("a bucket without keys", async () => {
    const { MEDIA_S3_ACCESS_KEY_ID: _, MEDIA_S3_SECRET_ACCESS_KEY: __, ...keyless } = bucket.env;
    const output = await refusedStart(keyless);
    expect(output).toContain("MEDIA_S3_ACCESS_KEY_ID: required with MEDIA_S3_BUCKET");
    expect(output).toContain("MEDIA_S3_SECRET_ACCESS_KEY: required with MEDIA_S3_BUCKET");
  });

  it("keys without a bucket", async () => {
    const { MEDIA_S3_BUCKET: _, ...bucketless } = bucket.env;
    expect(await refusedStart(bucketless)).toContain("MEDIA_S3_ENDPOINT: set without MEDIA_S3_BUCKET");
  });

  it("wrong keys, a bucket that does not exist, an endpoint that does not answer", async () => {
    // s3rver checks the key id but not a V4 signature, so the wrong key here is the id.
    expect(await refusedStart({ ...bucket.env, MEDIA_S3_ACCESS_KEY_ID: "WRONG" })).toContain("the keys were refused");
    expect(await refusedStart({ ...bucket.env, MEDIA_S3_BUCKET: "no-such-bucket" })).toContain(
      "the bucket does not exist",
    );
    const closed = `http://127.0.0.1:${await freePort()}`;
    expect(await refusedStart({ ...bucket.env, MEDIA_S3_ENDPOINT: closed })).toContain(
      `bucket akhbar-media at ${closed}: it did not answer`,
    );
  });
});
