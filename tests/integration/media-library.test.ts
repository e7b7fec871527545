import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import sharp from "sharp";
import type { LibraryEntry } from "~/lib/media-library";
import { messages } from "~/lib/messages";
import { mediaLibraryMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { mediaNamesOf } from "~/server/media/media.server";
import { createTestAccount, sessionCookie } from "../../harness/accounts";
import type { TestServer } from "../../harness/test-server";
import { articleForm, canonicalPath } from "../../harness/articles";
import { mp4Bytes, pngBytes } from "../../harness/fixtures";
import { get, post, type Session } from "../../harness/http-client";
import { startTestBucket, type TestBucket } from "../support/s3rver";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/** The media library through the real server, its media in an S3-compatible bucket (s3rver). */
describe("the media library on the real server with a bucket", () => {
  let bucket: TestBucket;
  let server: TestServer;
  let db: DB;
  let editor: Session;
  let author: Session;
  let cover = "";
  let inBody = "";
  let first = "";
  let second = "";

  beforeAll(async () => {
    bucket = await startTestBucket();
    ({ server, db } = await startServerAndDb(bucket.env));
    await createTestAccount(db, server.site, { email: "desk@example.com", username: "مكتب الأخبار", role: "editor" });
    await createTestAccount(db, server.site, { email: "writer@example.com", username: "كاتبة", role: "author" });
    editor = { cookie: await sessionCookie(db, server.site, "desk@example.com") };
    author = { cookie: await sessionCookie(db, server.site, "writer@example.com") };
  });
  afterAll(async () => {
    await stopServerAndDb({ server, db });
    await bucket?.stop();
  });

  const library = async (query = "", session = editor) => {
    const response = await get(`${server.url}/api/media/library${query}`, session);
    expect(response.status).toBe(200);
    return ((await response.json()) as { images: LibraryEntry[] }).images;
  };
  const publish = async (
    session: Session,
    fields: Record<string, string | string[]>,
    files: { field: string; name: string; bytes: Buffer }[] = [],
  ) => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      content: "نص الخبر",
      category: "local",
      status: "published",
      ...fields,
    }))
      for (const item of [value].flat()) form.append(key, item);
    for (const file of articleForm({}, files).entries()) form.append(...(file as [string, Blob]));
    const response = await post(`${server.url}/api/news`, form, session, { origin: server.url });
    expect(response.status, await response.clone().text()).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };

  it("records each uploaded image with its uploader, size and uses; the editor's body upload too", async () => {
    first = await publish(author, { title: "صورة المرفأ", status: "review" }, [
      { field: "images", name: "port.png", bytes: await pngBytes(800, 1000, "#2a9d8f") },
    ]);
    const body = new FormData();
    body.set(
      "image",
      new Blob([new Uint8Array(await pngBytes(640, 360, "#e76f51"))], { type: "image/png" }),
      "figure.png",
    );
    const upload = await post(`${server.url}/api/media/images`, body, editor, { origin: server.url });
    expect(upload.status).toBe(201);
    inBody = ((await upload.json()) as { url: string }).url;

    const images = await library();
    expect(images.map((image) => image.url)).toEqual([inBody, expect.stringMatching(/^\/media\/news-images\//)]);
    cover = images[1]!.url;
    expect(images[1]).toMatchObject({
      uploader: "كاتبة",
      width: 800,
      height: 1000,
      uses: [{ id: first, title: "صورة المرفأ", as: "cover" }],
    });
    expect(images[0]).toMatchObject({ uploader: "مكتب الأخبار", uses: [] });
    expect((await library(`?uploader=${encodeURIComponent("كاتبة")}`)).map((image) => image.url)).toEqual([cover]);
    expect(await library(`?from=2000-01-01&to=2000-12-31`)).toEqual([]);
  });

  it("gives an image to a second story by its URL, without a new file in the bucket, with the details it is given", async () => {
    const keys = await bucket.keys();
    second = await publish(editor, {
      title: "خبر ثان بالصورة نفسها",
      imageOrder: cover,
      imageAlt: "رافعات المرفأ",
      imageCaption: "المرفأ عند الفجر",
      imageCredit: "أرشيف الموقع",
    });
    expect(await bucket.keys()).toEqual(keys);
    const row = await db.selectFrom("news").select("images").where("id", "=", second).executeTakeFirstOrThrow();
    expect(JSON.parse(row.images)).toEqual([cover]);
    const [entry] = await library(`?q=${encodeURIComponent("الفجر")}`);
    expect(entry).toMatchObject({ url: cover, alt: "رافعات المرفأ", credit: "أرشيف الموقع" });
    expect(entry!.uses.map((use) => use.id).sort()).toEqual([first, second].sort());
    const page = await (await get(`${server.url}/dashboard/media?q=${encodeURIComponent("الفجر")}`, editor)).text();
    expect(page).toContain("خبر ثان بالصورة نفسها");
    expect(page).toContain(mediaLibraryMessages.asCover);
  });

  it("sets a focal point by the library's form: cards crop around it and the share picture is cut around it, from the bucket", async () => {
    const set = await post(
      `${server.url}/dashboard/media`,
      { intent: "focus", url: cover, x: "0.3", y: "0.8" },
      author,
    );
    expect(set.status).toBe(200);
    const home = await (await get(`${server.url}/`)).text();
    expect(home).toContain("object-[30%_80%]");
    const page = await (await get(`${server.url}${await canonicalPath(db, second)}`)).text();
    expect(page).toContain("object-[30%_80%]");
    // In a story's gallery too, after another cover.
    const upload = new FormData();
    upload.set(
      "image",
      new Blob([new Uint8Array(await pngBytes(640, 360, "#264653"))], { type: "image/png" }),
      "harbour.png",
    );
    const otherCover = (
      (await (await post(`${server.url}/api/media/images`, upload, editor, { origin: server.url })).json()) as {
        url: string;
      }
    ).url;
    const gallery = await publish(editor, {
      title: "معرض المرفأ",
      imageOrder: [otherCover, cover],
      imageAlt: ["", ""],
      imageCaption: ["", ""],
      imageCredit: ["", ""],
    });
    const galleryPage = await (await get(`${server.url}${await canonicalPath(db, gallery)}`)).text();
    const galleryImages = [...galleryPage.matchAll(/<img [^>]*380px[^>]*>/g)].map(([tag]) => tag);
    expect(galleryImages).toHaveLength(1);
    expect(galleryImages[0]).toContain(cover.replace(/\.webp$/, ""));
    expect(galleryImages[0]).toContain("object-[30%_80%]");
    const og = /property="og:image" content="[^"]*?(\/media\/focal-crops\/[^"]+\.jpg)"/.exec(page)?.[1];
    expect(og).toMatch(/-300-800-1200x630\.jpg$/);
    const picture = await get(`${server.url}${og}`);
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toBe("image/jpeg");
    const { width, height } = await sharp(Buffer.from(await picture.arrayBuffer())).metadata();
    expect([width, height]).toEqual([1200, 630]);
    expect(await bucket.keys()).toContain(og!.slice("/media/".length));
  });

  it("gives a video a poster, shown before it plays, kept in the library as in use; another author may not", async () => {
    const form = new FormData();
    for (const [key, value] of Object.entries({
      title: "فيديو من المرفأ",
      content: "نص",
      category: "local",
      status: "draft",
    }))
      form.append(key, value);
    form.append("video", new Blob([new Uint8Array(mp4Bytes(8_192))], { type: "video/mp4" }), "clip.mp4");
    const created = await post(`${server.url}/api/news`, form, author, { origin: server.url });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    const poster = (session: Session, articleId = id) =>
      post(
        `${server.url}/api/media/posters`,
        articleForm({ articleId }, [{ field: "poster", name: "frame.jpg", bytes: jpeg }]),
        session,
        { origin: server.url },
      );
    const jpeg = await sharp({ create: { width: 640, height: 360, channels: 3, background: "#264653" } })
      .jpeg()
      .toBuffer();

    await createTestAccount(db, server.site, { email: "other@example.com", username: "كاتب آخر", role: "author" });
    const other = { cookie: await sessionCookie(db, server.site, "other@example.com") };
    expect((await poster(other)).status).toBe(403);
    expect((await poster(editor, first)).status).toBe(400);
    expect(await db.selectFrom("video_posters").selectAll().execute()).toEqual([]);

    const saved = await poster(author);
    expect(saved.status).toBe(201);
    const { url } = (await saved.json()) as { url: string };
    const page = await (await get(`${server.url}/edit-news/${id}`, author)).text();
    expect(page).toContain(url.replace(/\.webp$/, "-400w.webp"));
    // Published by hand: the reader's page, never cached while a draft, shows it.
    await db
      .updateTable("news")
      .set({ status: "published", published_at: new Date().toISOString() })
      .where("id", "=", id)
      .execute();
    const reader = await (await get(`${server.url}/news/${id}`)).text();
    expect(reader).toMatch(new RegExp(`<video[^>]+poster="${url.replace(/\.webp$/, "-1200w.webp")}"`));
    const [entry] = (await library()).filter((image) => image.url === url);
    expect(entry!.uses).toEqual([{ id, title: "فيديو من المرفأ", as: "poster" }]);
    const refused = await post(`${server.url}/dashboard/media`, { intent: "delete", url }, editor);
    expect(refused.status).toBe(409);
  });

  it("gives a YouTube video an uploaded poster; the reader's page loads nothing from YouTube before the click: the poster, or the title, and a link to the video", async () => {
    const id = await publish(editor, { title: "جولة في سوق الخضار", videoUrl: "https://youtu.be/dQw4w9WgXcQ" });
    const form = await (await get(`${server.url}/edit-news/${id}`, editor)).text();
    expect(form).toContain(mediaLibraryMessages.posterHintYoutube);
    expect(form).not.toContain(mediaLibraryMessages.posterCapture);

    const path = await canonicalPath(db, id);
    const reader = async () => (await get(`${server.url}${path}`)).text();
    const facadeOf = (html: string) => /<a href="([^"]+)"[^>]*data-testid="video-facade">([^]*?)<\/a>/.exec(html);
    const sources = (html: string) =>
      [...html.matchAll(/\s(?:src|srcset|poster|data)="([^"]*)"/gi)].map((match) => match[1]!);
    const untouched = await reader();
    expect(facadeOf(untouched)?.[1]).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    expect(facadeOf(untouched)?.[2]).toContain("جولة في سوق الخضار");
    expect(facadeOf(untouched)?.[2]).not.toContain("<img");

    const picture = await sharp({ create: { width: 1280, height: 720, channels: 3, background: "#e9c46a" } })
      .png()
      .toBuffer();
    const saved = await post(
      `${server.url}/api/media/posters`,
      articleForm({ articleId: id }, [{ field: "poster", name: "market.png", bytes: picture }]),
      editor,
      { origin: server.url },
    );
    expect(saved.status, await saved.clone().text()).toBe(201);
    const { url } = (await saved.json()) as { url: string };
    const { video } = await db.selectFrom("news").select("video").where("id", "=", id).executeTakeFirstOrThrow();
    expect(
      await db
        .selectFrom("video_posters")
        .select(["video_url", "poster_url"])
        .where("video_url", "=", video!)
        .execute(),
    ).toEqual([{ video_url: video, poster_url: url }]);

    await vi.waitFor(
      async () => expect(facadeOf(await reader())?.[2]).toContain(`src="${url.replace(/\.webp$/, "-800w.webp")}"`),
      { timeout: 5_000, interval: 50 },
    );
    const page = await reader();
    expect(page).toContain(messages.playVideo);
    expect(page).not.toContain("<iframe");
    expect(sources(page).filter((source) => /youtu/i.test(source))).toEqual([]);
    expect(sources(page).length).toBeGreaterThan(0);
  });

  it("refuses to delete an image in use (409, in Arabic); an editor deletes an unused one and its objects leave the bucket", async () => {
    const before = await db.selectFrom("media").selectAll().orderBy("url").execute();
    const refused = await post(`${server.url}/dashboard/media`, { intent: "delete", url: cover }, editor);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(mediaLibraryMessages.inUse);
    expect(await db.selectFrom("media").selectAll().orderBy("url").execute()).toEqual(before);
    for (const name of mediaNamesOf(cover)) expect(await bucket.keys()).toContain(name);

    const byAuthor = await post(`${server.url}/dashboard/media`, { intent: "delete", url: inBody }, author);
    expect(byAuthor.status).toBe(403);
    const deleted = await post(`${server.url}/dashboard/media`, { intent: "delete", url: inBody }, editor);
    expect(deleted.status).toBe(200);
    const keys = await bucket.keys();
    for (const name of mediaNamesOf(inBody)) expect(keys).not.toContain(name);
    expect((await library()).map((image) => image.url)).not.toContain(inBody);
  });
});
