import { existsSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Migrator, type Kysely } from "kysely";
import sharp from "sharp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrationsFor } from "../../../migrations/index";
import { createEmptyDatabase } from "../../../harness/temp-db";
import { onPostgres } from "../../../harness/postgres";
import { pngBytes } from "../../../harness/fixtures";
import { createTempNewsroom } from "../../../tests/support/newsroom";
import { mediaLibraryMessages } from "~/lib/newsroom-messages";
import { openDatabase, type DB } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import { mediaNamesOf } from "~/server/media/media.server";
import { listReferencedMedia } from "./article-media.server";
import { changeLibraryImage, deleteLibraryImage, searchLibrary, usesOf } from "./media-library.server";
import { editArticle, publishArticle } from "./publishing.server";
import { articleFormReading } from "./article-form.server";
import { readForm } from "~/server/http/read-form.server";
import { articleSchema } from "~/lib/article-schema";
import type { Newsroom } from "./newsroom.server";
import { getArticle } from "./articles-read.server";
import { shareImageFor } from "./share-image.server";
import { EDITORS } from "~/lib/audience";
import type { CurrentUser } from "~/server/accounts/guards.server";
import { deleteLiveUpdate, openCoverage, postLiveUpdate } from "~/server/coverage/coverage-write.server";

const EDITOR = { id: "editor-1", role: "editor" as const };
const AUTHOR = { id: "author-1", role: "author" as const };
const NO_FILTER = { q: "", uploader: "", from: null, to: null };

let db: DB;
let cleanup: () => Promise<void>;
let mediaDir: string;
let newsroom: Newsroom;
beforeEach(async () => {
  ({ db, cleanup, mediaDir, newsroom } = await createTempNewsroom());
});
afterEach(() => cleanup());

const storedFiles = (url: string) => mediaNamesOf(url).filter((name) => existsSync(path.join(mediaDir, name)));

async function submission(fields: Record<string, string | string[]>, images: Buffer[] = []) {
  const files = images.map((bytes, index) => {
    const file = path.join(mediaDir, `upload-${index}-${Math.random()}.png`);
    writeFileSync(file, bytes);
    return { field: "images", filename: `photo-${index}.png`, path: file, size: bytes.length };
  });
  const base = { title: "خبر", content: "نص الخبر", category: "local", status: "published" };
  const submitted = {
    fields: Object.fromEntries(
      Object.entries({ ...base, ...fields }).map(([key, value]) => [key, Array.isArray(value) ? value : [value]]),
    ),
    files,
  };
  return { input: await readForm(articleSchema, submitted, articleFormReading("api")), files };
}

describe("the media library", () => {
  it("gets a row for each image a story uploads, keeps it when the story drops it, and gives it to another story by its URL", async () => {
    const first = await publishArticle(
      newsroom,
      AUTHOR,
      await submission({ title: "الخبر الأول", status: "draft" }, [await pngBytes(900, 1200, "#264653")]),
    );
    const [url] = (await getArticle(db, first.id, EDITORS))!.images;
    const { images } = await searchLibrary(db, EDITOR, NO_FILTER);
    expect(images.map((image) => [image.url, image.width, image.height])).toEqual([[url, 900, 1200]]);
    expect(images[0]!.uses).toEqual([{ id: first.id, title: "الخبر الأول", as: "cover" }]);

    // Taken by a second story as its cover, with the details it gives it; they become the library's defaults.
    const second = await publishArticle(
      newsroom,
      EDITOR,
      await submission({
        title: "الخبر الثاني",
        imageOrder: url!,
        imageAlt: "مرفأ",
        imageCaption: "المرفأ صباحاً",
        imageCredit: "أرشيف",
      }),
    );
    expect((await getArticle(db, second.id))!.images).toEqual([url]);
    const [entry] = (await searchLibrary(db, EDITOR, { ...NO_FILTER, q: "صباحا" })).images;
    expect(entry).toMatchObject({ url, alt: "مرفأ", caption: "المرفأ صباحاً", credit: "أرشيف" });
    expect(entry!.uses.map((use) => use.title).sort()).toEqual(["الخبر الأول", "الخبر الثاني"]);

    // The first story drops it: its files stay, the library and the sweep still hold it.
    const article = (await getArticle(db, first.id, EDITORS))!;
    await editArticle(
      newsroom,
      EDITOR,
      article,
      await submission({
        title: "الخبر الأول",
        status: "draft",
        removeImages: url!,
        baseVersion: String(article.version),
      }),
    );
    expect(storedFiles(url!)).toHaveLength(4);
    expect(await listReferencedMedia(db)).toContain(url);
  });

  it("refuses a URL the library does not hold in a story's image order, and stores nothing", async () => {
    const refused = submission({
      imageOrder: "/media/news-images/0123456789abcdef-elsewhere.webp",
      imageAlt: "",
      imageCaption: "",
      imageCredit: "",
    });
    await expect(publishArticle(newsroom, EDITOR, await refused)).rejects.toMatchObject({ code: "validation" });
    expect(await db.selectFrom("news").select("id").execute()).toEqual([]);
  });

  it("refuses to delete an image in use (409, Arabic) and changes nothing; an editor deletes an unused one with its files", async () => {
    const story = await publishArticle(
      newsroom,
      EDITOR,
      await submission({ title: "خبر بصورة" }, [await pngBytes(), await pngBytes(640, 360, "#e76f51")]),
    );
    const [cover, second] = (await getArticle(db, story.id))!.images;
    await expect(deleteLibraryImage(newsroom, EDITOR, cover!)).rejects.toMatchObject({
      code: "conflict",
      message: mediaLibraryMessages.inUse,
    });
    expect(storedFiles(cover!)).toHaveLength(4);
    expect(await db.selectFrom("media").select("url").where("url", "=", cover!).execute()).toHaveLength(1);

    const story2 = (await getArticle(db, story.id))!;
    await editArticle(
      newsroom,
      EDITOR,
      story2,
      await submission({ title: "خبر بصورة", removeImages: second!, baseVersion: String(story2.version) }),
    );
    // A kept revision still names it: still in use.
    expect((await usesOf(db, [second!])).get(second!)).toEqual([{ id: story.id, title: "خبر بصورة", as: "revision" }]);
    await db.deleteFrom("news_revisions").execute();
    await expect(deleteLibraryImage(newsroom, AUTHOR, second!)).rejects.toMatchObject({ code: "forbidden" });
    expect(await changeLibraryImage(newsroom, EDITOR, { intent: "delete", url: second! })).toBe(
      mediaLibraryMessages.deleted,
    );
    expect(storedFiles(second!)).toEqual([]);
    expect(await db.selectFrom("media").select("url").where("url", "=", second!).execute()).toEqual([]);
    await expect(deleteLibraryImage(newsroom, EDITOR, second!)).rejects.toMatchObject({ code: "not-found" });
  });

  it("counts a picture in a live coverage update as in use: refused while the update shows it, deleted once the update is gone", async () => {
    const story = await publishArticle(
      newsroom,
      EDITOR,
      await submission({ title: "تغطية بصورة" }, [await pngBytes()]),
    );
    const other = await publishArticle(
      newsroom,
      EDITOR,
      await submission({ title: "خبر آخر" }, [await pngBytes(640, 360, "#e76f51")]),
    );
    const picture = (await getArticle(db, other.id))!.images[0]!;
    await db.deleteFrom("news").where("id", "=", other.id).execute();
    await db.deleteFrom("news_revisions").execute();
    const coverage = { db, clock: newsroom.clock };
    const editor: CurrentUser = { id: EDITOR.id, role: EDITOR.role, name: "محررة", email: "editor@example.com" };
    await openCoverage(coverage, editor, story.id);
    const body = {
      type: "doc",
      content: [
        { type: "paragraph", content: [{ type: "text", text: "من الموقع" }] },
        { type: "figure", attrs: { src: picture, alt: "", caption: "", credit: "" } },
      ],
    };
    const update = await postLiveUpdate(coverage, editor, story.id, { body: JSON.stringify(body) });

    expect((await usesOf(db, [picture])).get(picture)).toEqual([
      { id: story.id, title: "تغطية بصورة", as: "live-update" },
    ]);
    await expect(deleteLibraryImage(newsroom, EDITOR, picture)).rejects.toMatchObject({
      code: "conflict",
      message: mediaLibraryMessages.inUse,
    });
    expect(storedFiles(picture)).toHaveLength(4);
    await deleteLiveUpdate(coverage, editor, story.id, update);
    await deleteLibraryImage(newsroom, EDITOR, picture);
    expect(storedFiles(picture)).toEqual([]);
  });

  it("keeps a focal point in 0–1 and refuses anything else", async () => {
    await publishArticle(newsroom, EDITOR, await submission({}, [await pngBytes()]));
    const [{ url }] = (await db.selectFrom("media").select("url").execute()) as [{ url: string }];
    await changeLibraryImage(newsroom, AUTHOR, { intent: "focus", url, x: "0.2", y: "0.85" });
    expect((await searchLibrary(db, EDITOR, NO_FILTER)).images[0]!.focal).toEqual({ x: 0.2, y: 0.85 });
    for (const [x, y] of [
      ["1.5", "0.5"],
      ["-0.1", "0.2"],
      ["NaN", "0"],
      ["0.5", ""],
    ]) {
      await expect(changeLibraryImage(newsroom, EDITOR, { intent: "focus", url, x: x!, y: y! })).rejects.toMatchObject({
        code: "validation",
      });
    }
    expect((await searchLibrary(db, EDITOR, NO_FILTER)).images[0]!.focal).toEqual({ x: 0.2, y: 0.85 });
    await changeLibraryImage(newsroom, EDITOR, { intent: "focus", url });
    expect((await searchLibrary(db, EDITOR, NO_FILTER)).images[0]!.focal).toBeNull();
  });
});

describe("migration 024", () => {
  it("backfills the library from the articles and revisions that name stored images, with their first author, time and details", async () => {
    const engine = onPostgres ? "postgres" : "sqlite";
    const empty = await createEmptyDatabase();
    const older = openDatabase(empty.url);
    try {
      const migrator = new Migrator({ db: older, provider: { getMigrations: async () => migrationsFor(engine) } });
      await migrator.migrateTo("022-author-profiles");
      const raw = older as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const a = "/media/news-images/aaaaaaaaaaaaaaaa-port.webp";
      const b = "/media/news-images/bbbbbbbbbbbbbbbb.webp";
      const c = "/media/news-images/cccccccccccccccc-old.webp";
      const row = {
        content: "نص",
        category: "local",
        status: "published",
        is_video: 0,
        video: null,
        image_url: null,
        body: null,
        image_details: null,
      };
      await raw
        .insertInto("news")
        .values([
          {
            ...row,
            id: "n1",
            title: "أول",
            author_id: "u1",
            created_at: "2026-01-02T10:00:00.000Z",
            images: JSON.stringify([a]),
            image_details: JSON.stringify({ [a]: { alt: "مرفأ", caption: "", credit: "وكالة" } }),
          },
          {
            ...row,
            id: "n2",
            title: "ثان",
            author_id: "u2",
            created_at: "2026-02-02T10:00:00.000Z",
            images: JSON.stringify([a, "https://elsewhere.example/x.jpg"]),
            body: JSON.stringify({
              type: "doc",
              content: [{ type: "figure", attrs: { src: b, alt: "", caption: "", credit: "" } }],
            }),
          },
        ])
        .execute();
      await raw
        .insertInto("news_revisions")
        .values({
          news_id: "n2",
          title: "قديم",
          content: "",
          category: "local",
          images: JSON.stringify([c, "/media/news-images/cccccccccccccccc-old-400w.webp"]),
          image_url: null,
          video: null,
          author_id: "u2",
          byline: null,
          body: null,
          image_details: null,
          saved_by: "u2",
          saved_at: "2026-02-03T10:00:00.000Z",
        })
        .execute();
      await migrateToLatest(older);
      const rows = await older
        .selectFrom("media")
        .select(["url", "uploaded_by", "created_at", "alt", "credit"])
        .orderBy("url")
        .execute();
      expect(rows).toEqual([
        { url: a, uploaded_by: "u1", created_at: "2026-01-02T10:00:00.000Z", alt: "مرفأ", credit: "وكالة" },
        { url: b, uploaded_by: "u2", created_at: "2026-02-02T10:00:00.000Z", alt: "", credit: "" },
        { url: c, uploaded_by: "u2", created_at: "2026-02-03T10:00:00.000Z", alt: "", credit: "" },
      ]);
    } finally {
      await older.destroy();
      await empty.drop();
    }
  });
});

describe("migration 032", () => {
  it("gives each poster kept by video address to every story that uses the video, now or in a kept revision", async () => {
    const engine = onPostgres ? "postgres" : "sqlite";
    const empty = await createEmptyDatabase();
    const older = openDatabase(empty.url);
    try {
      const migrator = new Migrator({ db: older, provider: { getMigrations: async () => migrationsFor(engine) } });
      await migrator.migrateTo("027-live-coverage");
      const raw = older as unknown as Kysely<Record<string, Record<string, unknown>>>;
      const video = "https://youtu.be/dQw4w9WgXcQ";
      const poster = "/media/news-images/aaaaaaaaaaaaaaaa-poster.webp";
      const row = {
        content: "نص",
        category: "local",
        status: "published",
        is_video: 1,
        image_url: null,
        body: null,
        image_details: null,
        images: "[]",
        author_id: "u1",
        created_at: "2026-01-02T10:00:00.000Z",
      };
      await raw
        .insertInto("news")
        .values([
          { ...row, id: "n1", title: "أول", video },
          { ...row, id: "n2", title: "ثان", video: null },
          { ...row, id: "n3", title: "ثالث", video: "https://youtu.be/aaaaaaaaaaa" },
        ])
        .execute();
      await raw
        .insertInto("news_revisions")
        .values({
          news_id: "n2",
          title: "قديم",
          content: "",
          category: "local",
          images: "[]",
          image_url: null,
          video,
          author_id: "u1",
          byline: null,
          body: null,
          image_details: null,
          saved_by: "u1",
          saved_at: "2026-02-03T10:00:00.000Z",
        })
        .execute();
      await raw
        .insertInto("video_posters")
        .values({ video_url: video, poster_url: poster, set_by: "u1", set_at: "2026-01-03T10:00:00.000Z" })
        .execute();
      await migrateToLatest(older);
      const rows = await older
        .selectFrom("video_posters")
        .select(["news_id", "video_url", "poster_url"])
        .orderBy("news_id")
        .execute();
      expect(rows).toEqual([
        { news_id: "n1", video_url: video, poster_url: poster },
        { news_id: "n2", video_url: video, poster_url: poster },
      ]);
      expect((await getArticle(older, "n1"))!.videoPoster).toBe(poster);
      expect((await getArticle(older, "n3"))!.videoPoster).toBeUndefined();
    } finally {
      await older.destroy();
      await empty.drop();
    }
  });
});

describe("the share picture", () => {
  it("is cut to 1200×630 around the cover's focal point, on pixels", async () => {
    // A portrait picture: red above, blue in its lowest fifth; a centre crop shows red alone.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="1200"><rect width="600" height="960" fill="#ff0000"/><rect y="960" width="600" height="240" fill="#0000ff"/></svg>`;
    const png = await sharp(Buffer.from(svg)).png().toBuffer();
    const story = await publishArticle(newsroom, EDITOR, await submission({}, [png]));
    const [url] = (await getArticle(db, story.id))!.images as [string];
    const colourAt = async (shareUrl: string, x: number, y: number) => {
      const { data, info } = await sharp(path.join(mediaDir, shareUrl.replace("/media/", "")))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const at = (y * info.width + x) * info.channels;
      return [data[at]!, data[at + 1]!, data[at + 2]!];
    };

    const centred = (await shareImageFor(newsroom.storage, (await getArticle(db, story.id))!))!;
    expect(centred.url).toMatch(/-1200w\.webp$/);

    await changeLibraryImage(newsroom, EDITOR, { intent: "focus", url, x: "0.5", y: "0.9" });
    const article = (await getArticle(db, story.id))!;
    expect(article.imageFocus).toEqual({ x: 0.5, y: 0.9 });
    const share = (await shareImageFor(newsroom.storage, article))!;
    expect(share).toMatchObject({ width: 1200, height: 630 });
    expect(share.url).toMatch(/^\/media\/focal-crops\/.+-500-900-1200x630\.jpg$/);
    const { width, height } = await sharp(path.join(mediaDir, share.url.replace("/media/", ""))).metadata();
    expect([width, height]).toEqual([1200, 630]);
    const [r, , b] = await colourAt(share.url, 600, 600);
    expect(b).toBeGreaterThan(200);
    expect(r).toBeLessThan(50);
    // The scaled picture is 2400 px tall; the cut keeps the focal point (y 2160) 390 px from its top edge (1770).
    const [r2, , b2] = await colourAt(share.url, 600, 100);
    expect(r2).toBeGreaterThan(200);
    expect(b2).toBeLessThan(50);
  });
});
