import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ErrorBody } from "~/lib/error-body";
import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { exeBytes, jpegBytes, mp4Bytes, pngBytes } from "../../harness/fixtures";
import { callApi, get, post, type Session } from "../../harness/http-client";
import { articleForm, putArticle } from "../../harness/articles";
import type { TestServer } from "../../harness/test-server";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let admin: Session;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  admin = await sessionAs(db, server, { email: "editor@example.com", username: "محرر", role: "admin" });
});
afterAll(() => stopServerAndDb({ server, db }));

const form = articleForm;

const valid = {
  title: "افتتاح مكتبة عامة في طرابلس",
  content: "فقرة أولى.\n\nفقرة ثانية.",
  category: "local",
  status: "published",
};

function mediaFiles(): string[] {
  return ["news-images", "news-videos", ".staging"].flatMap((sub) => {
    const dir = path.join(server.env.MEDIA_DIR, sub);
    return existsSync(dir) ? readdirSync(dir).map((f) => `${sub}/${f}`) : [];
  });
}

async function state() {
  const news = await db.selectFrom("news").selectAll().orderBy("id").execute();
  const links = await db.selectFrom("short_links").selectAll().orderBy("short_id").execute();
  return JSON.stringify({ news, links, files: mediaFiles().filter((f) => !f.startsWith(".staging/")) });
}

const api = (method: "POST" | "PUT" | "DELETE", pathname: string, body?: FormData) =>
  callApi(`${server.url}${pathname}`, method, body, admin);

describe("publishing", () => {
  it("creates the article with its images, a short link to /news/{id}, and keeps the paragraphs", async () => {
    const { status, json } = await api(
      "POST",
      "/api/news",
      form({ ...valid, title: "  افتتاح مكتبة عامة في طرابلس  " }, [
        { field: "images", name: "one.png", bytes: await pngBytes() },
        { field: "images", name: "two.jpg", bytes: await jpegBytes() },
      ]),
    );
    expect(status).toBe(201);
    const row = await db.selectFrom("news").selectAll().where("id", "=", json.id!).executeTakeFirstOrThrow();
    expect(row.title).toBe("افتتاح مكتبة عامة في طرابلس");
    // Plain `content` from an older client becomes a document of paragraphs; `content` keeps its plain text.
    expect(row.content).toBe("فقرة أولى.\nفقرة ثانية.");
    expect(JSON.parse(row.body!)).toEqual({
      type: "doc",
      content: [
        { type: "paragraph", content: [{ type: "text", text: "فقرة أولى." }] },
        { type: "paragraph", content: [{ type: "text", text: "فقرة ثانية." }] },
      ],
    });
    expect(JSON.parse(row.images)).toHaveLength(2);
    const link = await db
      .selectFrom("short_links")
      .selectAll()
      .where("news_id", "=", json.id!)
      .executeTakeFirstOrThrow();
    expect(link).toMatchObject({ short_id: json.shortId, long_url: `/news/${json.id}` });
    const page = await get(`${server.url}/news/${json.id}`);
    expect(await page.text()).toContain("افتتاح مكتبة عامة في طرابلس");
  });

  it("stores an uploaded video and serves it with Range requests", async () => {
    const { status, json } = await api(
      "POST",
      "/api/news",
      form(valid, [{ field: "video", name: "clip.mp4", bytes: mp4Bytes(100_000), type: "video/mp4" }]),
    );
    expect(status).toBe(201);
    const row = await db
      .selectFrom("news")
      .select(["video", "is_video"])
      .where("id", "=", json.id!)
      .executeTakeFirstOrThrow();
    expect(row.is_video).toBe(1);
    expect(row.video).toMatch(/^\/media\/news-videos\/[0-9a-f]{16}-clip\.mp4$/);
    const ranged = await fetch(`${server.url}${row.video}`, { headers: { range: "bytes=1000-1999" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-range")).toBe("bytes 1000-1999/100000");
    expect((await ranged.arrayBuffer()).byteLength).toBe(1000);
  });

  it("posting the same form twice publishes once", async () => {
    const fields = { ...valid, title: "خبر مرسل مرتين", submissionId: "0b0e5f4c-5c9b-4c7e-9d3d-1a2b3c4d5e6f" };
    expect((await api("POST", "/api/news", form(fields))).status).toBe(201);
    const before = await state();
    const again = await api(
      "POST",
      "/api/news",
      form(fields, [{ field: "images", name: "x.png", bytes: await pngBytes() }]),
    );
    expect(again.status).toBe(409);
    expect(again.json.error?.message).toBe(newsroomMessages.alreadySubmitted);
    expect(await state()).toBe(before);
  });

  it("answers every bad input with a 4xx and a clear message, leaving nothing half-written", async () => {
    const png = await pngBytes(800, 600);
    const cases: { name: string; body: FormData; status: number; field: string; message: string }[] = [
      {
        name: "empty title",
        body: form({ ...valid, title: "" }),
        status: 400,
        field: "title",
        message: newsroomMessages.titleRequired,
      },
      {
        name: "whitespace title",
        body: form({ ...valid, title: " \n\t " }),
        status: 400,
        field: "title",
        message: newsroomMessages.titleRequired,
      },
      {
        name: "empty content",
        body: form({ ...valid, content: "   " }),
        status: 400,
        field: "content",
        message: newsroomMessages.contentRequired,
      },
      {
        name: "2 MB title",
        body: form({ ...valid, title: "ع".repeat(1_000_000) }),
        status: 413,
        field: "title",
        message: newsroomMessages.titleTooLong,
      },
      {
        name: "long title",
        body: form({ ...valid, title: "ع".repeat(301) }),
        status: 400,
        field: "title",
        message: newsroomMessages.titleTooLong,
      },
      {
        name: "unknown category",
        body: form({ ...valid, category: "politics" }),
        status: 400,
        field: "category",
        message: messages.categoryInvalid,
      },
      {
        name: "javascript: video",
        body: form({ ...valid, videoUrl: "javascript:alert(1)" }),
        status: 400,
        field: "videoUrl",
        message: newsroomMessages.videoUrlInvalid,
      },
      {
        name: ".exe renamed .jpg, after a good image",
        body: form(valid, [
          { field: "images", name: "good.png", bytes: png },
          { field: "images", name: "photo.jpg", bytes: exeBytes(), type: "image/jpeg" },
        ]),
        status: 400,
        field: "images",
        message: newsroomMessages.imageInvalid,
      },
      {
        name: "truncated image",
        body: form(valid, [{ field: "images", name: "cut.png", bytes: png.subarray(0, 200) }]),
        status: 400,
        field: "images",
        message: newsroomMessages.imageInvalid,
      },
      {
        name: "0-byte image",
        body: form(valid, [{ field: "images", name: "empty.png", bytes: Buffer.alloc(0) }]),
        status: 400,
        field: "images",
        message: newsroomMessages.imageInvalid,
      },
      {
        name: "video that is not a video",
        body: form(valid, [{ field: "video", name: "v.mp4", bytes: exeBytes() }]),
        status: 400,
        field: "video",
        message: newsroomMessages.videoInvalid,
      },
      {
        name: "16 MB image",
        body: form(valid, [
          { field: "images", name: "huge.png", bytes: Buffer.concat([png, Buffer.alloc(16 * 1024 * 1024)]) },
        ]),
        status: 413,
        field: "images",
        message: newsroomMessages.imageTooLarge,
      },
    ];
    for (const testCase of cases) {
      const before = await state();
      const { status, json } = await api("POST", "/api/news", testCase.body);
      expect(status, testCase.name).toBe(testCase.status);
      expect(json.error?.fields?.[testCase.field], testCase.name).toBe(testCase.message);
      expect(await state(), testCase.name).toBe(before);
    }
    expect(mediaFiles().filter((f) => f.startsWith(".staging/"))).toEqual([]);
  });

  it("stops a 400 MB video at 300 MB without holding it in memory, and stores nothing", async () => {
    const before = await state();
    const boundary = "----akhbar-big-video";
    const head = Buffer.from(
      Object.entries(valid)
        .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
        .join("") +
        `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="big.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
    );
    const chunk = mp4Bytes(1024 * 1024);
    let sent = 0;
    const total = 400 * 1024 * 1024;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new Uint8Array(head));
      },
      pull(controller) {
        if (sent >= total) {
          controller.enqueue(new TextEncoder().encode(`\r\n--${boundary}--\r\n`));
          controller.close();
          return;
        }
        sent += chunk.length;
        controller.enqueue(new Uint8Array(chunk));
      },
    });
    const peakBefore = server.peakMemory();
    const response = await fetch(`${server.url}/api/news`, {
      method: "POST",
      body,
      headers: { cookie: admin.cookie, "content-type": `multipart/form-data; boundary=${boundary}` },
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorBody).error.fields?.video).toBe(newsroomMessages.videoTooLarge);
    expect(await state()).toBe(before);
    // The server's peak memory grows by far less than the 300 MB it read: the video went to disk.
    expect(server.peakMemory() - peakBefore).toBeLessThan(100 * 1024 * 1024);
  }, 120_000);

  it("a file name cannot choose where the file goes", async () => {
    const { status, json } = await api(
      "POST",
      "/api/news",
      form(valid, [{ field: "images", name: "../../etc/passwd", bytes: await pngBytes() }]),
    );
    expect(status).toBe(201);
    const row = await db.selectFrom("news").select("images").where("id", "=", json.id!).executeTakeFirstOrThrow();
    expect(JSON.parse(row.images)[0]).toMatch(/^\/media\/news-images\/[0-9a-f]{16}-passwd\.webp$/);
  });
});

describe("editing and deleting", () => {
  it("edits title, content, category, status and images, sets updated_at and keeps the replaced files for the revision", async () => {
    const created = await api(
      "POST",
      "/api/news",
      form(valid, [{ field: "images", name: "old.png", bytes: await pngBytes() }]),
    );
    const before = await db
      .selectFrom("news")
      .select("images")
      .where("id", "=", created.json.id!)
      .executeTakeFirstOrThrow();
    const oldImage = JSON.parse(before.images)[0] as string;
    const edit = form(
      {
        title: "عنوان معدّل",
        content: "نص معدّل",
        category: "sports",
        status: "draft",
        imageUrl: "https://example.com/a.jpg",
        removeImages: oldImage,
      },
      [{ field: "images", name: "new.png", bytes: await pngBytes(500, 300, "#123456") }],
    );
    const { status } = await putArticle(server.url, admin, created.json.id!, edit);
    expect(status).toBe(200);
    const row = await db.selectFrom("news").selectAll().where("id", "=", created.json.id!).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      title: "عنوان معدّل",
      content: "نص معدّل",
      category: "sports",
      status: "draft",
      image_url: "https://example.com/a.jpg",
    });
    expect(row.updated_at).not.toBeNull();
    expect(JSON.parse(row.images)).toHaveLength(1);
    expect(existsSync(path.join(server.env.MEDIA_DIR, oldImage.replace("/media/", "")))).toBe(true);
    expect((await get(`${server.url}/news/${created.json.id}`)).status).toBe(404);
  });

  it("an edit with an empty title changes nothing", async () => {
    const created = await api("POST", "/api/news", form(valid));
    const before = await state();
    const { status, json } = await putArticle(server.url, admin, created.json.id!, form({ ...valid, title: "  " }));
    expect(status).toBe(400);
    expect(json.error?.fields?.title).toBe(newsroomMessages.titleRequired);
    expect(await state()).toBe(before);
  });

  it("deleting moves the article to the trash with its media; deleting it for good removes it and its short link, its images staying in the media library until an editor deletes them there; 404 for a missing id", async () => {
    const keep = await api(
      "POST",
      "/api/news",
      form(valid, [{ field: "images", name: "keep.png", bytes: await pngBytes() }]),
    );
    const gone = await api(
      "POST",
      "/api/news",
      form(valid, [{ field: "images", name: "gone.png", bytes: await pngBytes() }]),
    );
    const filesBefore = mediaFiles();
    const { status } = await api("DELETE", `/api/news/${gone.json.id}`);
    expect(status).toBe(200);
    expect(
      await db.selectFrom("news").select(["status", "trashed_from"]).where("id", "=", gone.json.id!).execute(),
    ).toEqual([{ status: "trashed", trashed_from: "published" }]);
    expect((await get(`${server.url}/news/${gone.json.id}`)).status).toBe(404);
    expect(mediaFiles()).toEqual(filesBefore);
    const forGood = await post(`${server.url}/dashboard/trash`, { id: gone.json.id!, intent: "delete" }, admin);
    expect(forGood.status).toBe(302);
    expect(await db.selectFrom("news").select("id").where("id", "=", gone.json.id!).execute()).toEqual([]);
    expect(
      await db.selectFrom("short_links").select("short_id").where("news_id", "=", gone.json.id!).execute(),
    ).toEqual([]);
    expect(mediaFiles()).toEqual(filesBefore);
    const { url: image } = await db
      .selectFrom("media")
      .select("url")
      .where("url", "like", "%-gone.webp")
      .executeTakeFirstOrThrow();
    expect((await post(`${server.url}/dashboard/media`, { intent: "delete", url: image }, admin)).status).toBe(200);
    expect(filesBefore.length - mediaFiles().length).toBe(4);
    expect(mediaFiles().some((f) => f.includes("-keep"))).toBe(true);
    expect((await get(`${server.url}/news/${keep.json.id}`)).status).toBe(200);

    const before = await state();
    expect((await api("DELETE", `/api/news/${gone.json.id}`)).status).toBe(404);
    expect((await api("PUT", "/api/news/no-such-id", form({ ...valid, baseVersion: "1" }))).status).toBe(404);
    const formDelete = await post(`${server.url}/news/no-such-id/delete`, { redirectTo: "/" }, admin);
    expect(formDelete.status).toBe(404);
    expect(await state()).toBe(before);
  });

  it("the edit page of a missing id is a 404 that says 'الخبر غير موجود'", async () => {
    const response = await get(`${server.url}/edit-news/no-such-id`, admin);
    expect(response.status).toBe(404);
    expect(await response.text()).toContain(messages.newsNotFound);
  });
});
