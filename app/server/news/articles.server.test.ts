import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import type { DB } from "~/server/db/db.server";
import {
  getArticle,
  listCategoryPage,
  listLatest,
  listLatestByCategory,
  listMostRead,
  listSlider,
  readArticle,
} from "./articles-read.server";
import { createArticle, deleteArticle, updateArticle, type NewArticle } from "./articles-write.server";
import { articleAt, createTestArticle } from "../../../harness/articles";
import { shortIdFor } from "./short-links.server";
import { PUBLIC } from "~/lib/audience";

let db: DB;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
});
afterEach(async () => cleanup());

const article = (minutes: number, overrides: Partial<NewArticle> = {}) => articleAt(db, minutes, overrides);

describe("listLatest", () => {
  it("orders newest first, honours limit and offset, and filters by category", async () => {
    for (let i = 0; i < 5; i++) await article(i);
    await article(10, { category: "sports" });
    const latest = await listLatest(db, { limit: 3 });
    expect(latest.map((n) => n.title)).toEqual(["خبر 10", "خبر 4", "خبر 3"]);
    const local = await listLatest(db, { limit: 10, category: "local", offset: 1 });
    expect(local.map((n) => n.title)).toEqual(["خبر 3", "خبر 2", "خبر 1", "خبر 0"]);
  });

  it("leaves drafts out, and the story it is told to", async () => {
    await article(1, { status: "draft" });
    const second = await article(2);
    await article(3);
    expect((await listLatest(db, { limit: 10 })).map((n) => n.title)).toEqual(["خبر 3", "خبر 2"]);
    expect((await listLatest(db, { limit: 10, excludeId: second })).map((n) => n.title)).toEqual(["خبر 3"]);
  });
});

describe("listLatestByCategory", () => {
  it("gives each category its newest, newest first, as listLatest does, and an empty list to a category with none", async () => {
    for (let i = 0; i < 5; i++) await article(i, { category: i % 2 === 0 ? "sports" : "local" });
    await article(5, { category: "sports", status: "draft" });
    await article(6, { category: "breaking" });
    const sections = await listLatestByCategory(db, ["local", "sports", "breaking", "advertisement"], 2);
    expect([...sections].map(([category, items]) => [category, items.map((n) => n.title)])).toEqual([
      ["local", ["خبر 3", "خبر 1"]],
      ["sports", ["خبر 4", "خبر 2"]],
      ["breaking", ["خبر 6"]],
      ["advertisement", []],
    ]);
    for (const category of ["local", "sports"] as const)
      expect(sections.get(category)).toEqual(await listLatest(db, { category, limit: 2 }));
  });
});

describe("listCategoryPage", () => {
  it("pages by six and says whether more follow", async () => {
    for (let i = 0; i < 13; i++) await article(i, { category: "sports" });
    const first = await listCategoryPage(db, "sports", 1, 6);
    const third = await listCategoryPage(db, "sports", 3, 6);
    expect(first.items).toHaveLength(6);
    expect(first.hasMore).toBe(true);
    expect(first.items[0]?.title).toBe("خبر 12");
    expect(third.items.map((n) => n.title)).toEqual(["خبر 0"]);
    expect(third.hasMore).toBe(false);
  });

  it("heads the first page with the pinned story and leaves it out of the rest, skipping and repeating none", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 13; i++) ids.push(await article(i, { category: "sports" }));
    const pinned = (await listLatest(db, { limit: 20, category: "sports" })).find((item) => item.id === ids[3])!;
    const pages = await Promise.all([1, 2, 3].map((page) => listCategoryPage(db, "sports", page, 6, pinned)));
    expect(pages.map((page) => page.items.length)).toEqual([6, 6, 1]);
    expect(pages.map((page) => page.hasMore)).toEqual([true, true, false]);
    const shown = pages.flatMap((page) => page.items.map((item) => item.title));
    expect(shown[0]).toBe("خبر 3");
    expect(new Set(shown).size).toBe(13);
  });
});

describe("listSlider", () => {
  it("takes the 4 newest items that have an image and are not video nor advertisements", async () => {
    await article(0, { images: ["/a.webp"] });
    await article(1, { images: ["/b.webp"] });
    await article(2, { images: ["/c.webp"] });
    await article(3, { images: ["/d.webp"], video: "https://www.youtube.com/watch?v=abcdefghijk" });
    await article(4);
    await article(5, { images: ["/e.webp"] });
    await article(6, { images: ["/f.webp"], status: "draft" });
    await article(7, { images: ["/g.webp"] });
    await article(8, { images: ["/h.webp"], category: "advertisement" });
    const slider = await listSlider(db);
    expect(slider.map((n) => n.title)).toEqual(["خبر 7", "خبر 5", "خبر 2", "خبر 1"]);
    expect(slider.every((n) => n.image !== null && !n.isVideo)).toBe(true);
  });
});

describe("listMostRead", () => {
  it("orders by visits and fetches 8", async () => {
    for (let i = 0; i < 10; i++) await article(i, { visits: (i * 37) % 11 });
    const mostRead = await listMostRead(db);
    expect(mostRead).toHaveLength(8);
    const visits = mostRead.map((n) => n.visits);
    expect(visits).toEqual([...visits].sort((a, b) => b - a));
  });
});

describe("getArticle", () => {
  it("returns paragraphs and images intact, and hides drafts from the public", async () => {
    const id = await article(0, { content: "فقرة أولى\n\nفقرة ثانية", images: ["/x.webp", "/y.webp"] });
    const found = await getArticle(db, id);
    expect(found?.content).toBe("فقرة أولى\n\nفقرة ثانية");
    expect(found?.images).toEqual(["/x.webp", "/y.webp"]);
    const draft = await article(1, { status: "draft" });
    expect(await getArticle(db, draft)).toBeNull();
  });
});

describe("readArticle", () => {
  it("gives the article as getArticle does with its short link, or none yet, and hides drafts from the public", async () => {
    const published = await article(0, { content: "نص الخبر" });
    const shortId = await shortIdFor(db, published);
    expect(shortId).not.toBeNull();
    expect(await readArticle(db, published, PUBLIC)).toEqual({ article: await getArticle(db, published), shortId });
    const draft = await article(1, { status: "draft" });
    expect(await shortIdFor(db, draft)).toBeNull();
    expect(await readArticle(db, draft, PUBLIC)).toBeNull();
    expect(await readArticle(db, draft, { includeDrafts: true })).toEqual({
      article: await getArticle(db, draft, { includeDrafts: true }),
      shortId: null,
    });
  });
});

describe("updateArticle and deleteArticle", () => {
  it("updates the fields, sets updated_at and frees no media: the revision it keeps still refers to it", async () => {
    const id = await article(0, {
      images: ["/media/news-images/1-a.webp", "/media/news-images/2-b.webp"],
      video: "/media/news-videos/3-c.mp4",
    });
    const result = await updateArticle(db, id, {
      title: "عنوان جديد",
      content: "نص جديد",
      category: "sports",
      status: "draft",
      imageUrl: "https://example.com/x.jpg",
      images: ["/media/news-images/2-b.webp"],
      video: null,
    });
    expect(result?.unusedMedia).toEqual([]);
    const updated = await getArticle(db, id, { includeDrafts: true });
    expect(updated).toMatchObject({
      title: "عنوان جديد",
      category: "sports",
      status: "draft",
      imageUrl: "https://example.com/x.jpg",
      video: null,
      isVideo: false,
    });
    expect(updated?.updatedAt).not.toBeNull();
    expect(
      await updateArticle(db, "missing", {
        title: "x",
        content: "y",
        category: "local",
        status: "published",
        imageUrl: null,
        images: [],
        video: null,
      }),
    ).toBeNull();
  });

  it("deletes the article and its short link, and nothing else", async () => {
    const keep = await createTestArticle(db, { title: "يبقى", content: "نص", category: "local" });
    const gone = await createTestArticle(db, {
      title: "يحذف",
      content: "نص",
      category: "breaking",
      images: ["/media/news-images/9-z.webp"],
    });
    expect(await deleteArticle(db, gone.id)).toMatchObject({ media: ["/media/news-images/9-z.webp"] });
    expect(await getArticle(db, gone.id, { includeDrafts: true })).toBeNull();
    expect(await db.selectFrom("short_links").select("news_id").execute()).toEqual([{ news_id: keep.id }]);
    expect(await deleteArticle(db, gone.id)).toBeNull();
  });

  it("creates once per submission id", async () => {
    const first = await createArticle(db, {
      title: "مرة",
      content: "نص",
      category: "local",
      submissionId: "form-123456",
    });
    const again = await createArticle(db, {
      title: "مرة",
      content: "نص",
      category: "local",
      submissionId: "form-123456",
    });
    expect(again).toEqual({ ...first, duplicate: true });
    expect(await listLatest(db, { limit: 10 })).toHaveLength(1);
  });
});

describe("media shared by two articles (names stored before media names were unique per article)", () => {
  it("deleting or editing one article never hands back a file the other still uses", async () => {
    const shared = "/media/news-images/1700000000000-file.webp";
    const video = "/media/news-videos/1700000000000-file.mp4";
    const first = await article(1, { images: [shared, "/media/news-images/own.webp"], video });
    await article(2, { images: [shared], video });
    const edit = {
      title: "خبر",
      content: "نص",
      category: "local" as const,
      status: "published" as const,
      imageUrl: null,
      images: [],
      video: null,
    };
    expect((await updateArticle(db, first, edit))?.unusedMedia).toEqual([]);
    const third = await article(3, { images: [shared], video });
    expect((await deleteArticle(db, third))?.media).toEqual([]);
    // Deleted for good, the first article's revision goes, and with it the only reference to its own image.
    expect((await deleteArticle(db, first))?.media).toEqual(["/media/news-images/own.webp"]);
  });
});
