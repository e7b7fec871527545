import { existsSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pngBytes } from "../../../harness/fixtures";
import { createTempNewsroom } from "../../../tests/support/newsroom";
import { createTestArticle, canonicalPath } from "../../../harness/articles";
import type { DB } from "~/server/db/db.server";
import { storeImage } from "~/server/media/media.server";
import { readEventsAfter } from "~/server/outbox/outbox.server";
import { searchNews } from "./search-news.server";
import { EDITORS } from "~/lib/audience";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { listAllForDashboard } from "./dashboard-list.server";
import { UNFILTERED } from "~/lib/dashboard-filter";
import { getArticle, listLatest } from "./articles-read.server";
import { updateArticle } from "./articles-write.server";
import { listReferencedMedia } from "./article-media.server";
import type { Newsroom } from "./newsroom.server";
import { listRevisions } from "./revisions.server";
import { resolveShortLink } from "./short-links.server";
import { deleteFromTrash, purgeExpiredTrash } from "./trash-purge.server";
import { listTrash, restoreFromTrash, TRASH_KEEP_MS, trashArticle } from "./trash.server";

let db: DB;
let cleanup: () => Promise<void>;
let mediaDir: string;
let newsroom: Newsroom;
beforeEach(async () => {
  ({ db, cleanup, mediaDir, newsroom } = await createTempNewsroom());
});
afterEach(() => cleanup());

const stored = (url: string) => existsSync(path.join(mediaDir, url.replace("/media/", "")));
const day = 24 * 60 * 60 * 1000;

async function articleWithImage(title: string, status: "published" | "draft" = "published") {
  const image = await storeImage(newsroom.storage, await pngBytes(), "photo.png");
  const created = await createTestArticle(db, { title, content: "كلمة فريدة للبحث", images: [image], status });
  // A draft has no short link until it is first published.
  return { ...created, shortId: created.shortId ?? "", image };
}

describe("the trash", () => {
  it("takes an article out of every list, page, search and short link at once, for editors too, and tells the outbox", async () => {
    const { id, shortId } = await articleWithImage("خبر سيحذف");
    await trashArticle(db, id);
    expect(await getArticle(db, id)).toBeNull();
    expect(await getArticle(db, id, EDITORS)).toBeNull();
    expect(await listLatest(db, { limit: 10 })).toEqual([]);
    expect((await listAllForDashboard(db, UNFILTERED, 1, 10)).items).toEqual([]);
    expect(await resolveShortLink(db, shortId)).toBeNull();
    expect((await searchNews(db, "فريدة")).results).toEqual([]);
    expect((await readEventsAfter(db, 0, 10)).at(-1)).toMatchObject({ kind: "article-unpublished", articleId: id });
    expect(await listTrash(db)).toMatchObject([{ id, title: "خبر سيحذف", trashedFrom: "published" }]);
    await expect(trashArticle(db, id)).rejects.toMatchObject({ code: "not-found" });
    expect(
      await updateArticle(db, id, {
        title: "x",
        content: "x",
        category: "local",
        status: "published",
        imageUrl: null,
        images: [],
        video: null,
      }),
    ).toBeNull();
  });

  it("restores an article to the status it had: a published one is public again, with its short link", async () => {
    const published = await articleWithImage("منشور");
    const draft = await articleWithImage("مسودة", "draft");
    await trashArticle(db, published.id);
    await trashArticle(db, draft.id);
    await restoreFromTrash(db, published.id);
    await restoreFromTrash(db, draft.id);
    expect((await getArticle(db, published.id))?.status).toBe("published");
    expect(await resolveShortLink(db, published.shortId)).toBe(await canonicalPath(db, published.id));
    expect((await searchNews(db, "فريدة")).results.map((r) => r.id)).toEqual([published.id]);
    expect((await getArticle(db, draft.id, EDITORS))?.status).toBe("draft");
    expect(await listTrash(db)).toEqual([]);
    await expect(restoreFromTrash(db, published.id)).rejects.toMatchObject({
      code: "not-found",
      message: newsroomMessages.notInTrash,
    });
  });

  it("keeps media while in the trash and deletes it with the revisions only when deleted for good", async () => {
    const { id, image } = await articleWithImage("خبر");
    const second = await storeImage(newsroom.storage, await pngBytes(), "second.png");
    await updateArticle(db, id, {
      title: "خبر",
      content: "نص",
      category: "local",
      status: "published",
      imageUrl: null,
      images: [second],
      video: null,
    });
    await trashArticle(db, id);
    expect(stored(image) && stored(second)).toBe(true);
    expect(await listReferencedMedia(db)).toEqual(expect.arrayContaining([image, second]));
    await expect(deleteFromTrash(newsroom, "not-there")).rejects.toMatchObject({ code: "not-found" });
    await deleteFromTrash(newsroom, id);
    expect(stored(image) || stored(second)).toBe(false);
    expect(await listRevisions(db, id)).toEqual([]);
    expect(await listTrash(db)).toEqual([]);
  });

  it("refuses to delete for good what is not in the trash", async () => {
    const { id, image } = await articleWithImage("خبر حي");
    await expect(deleteFromTrash(newsroom, id)).rejects.toMatchObject({ code: "not-found" });
    expect((await getArticle(db, id))?.title).toBe("خبر حي");
    expect(stored(image)).toBe(true);
  });

  it("purges what has been in the trash for more than 30 days, with its media, and keeps the rest", async () => {
    const now = Date.now();
    const old = await articleWithImage("قديم");
    const recent = await articleWithImage("حديث");
    await trashArticle(db, old.id, new Date(now - TRASH_KEEP_MS - day));
    await trashArticle(db, recent.id, new Date(now - TRASH_KEEP_MS + day));
    expect(await purgeExpiredTrash(newsroom, new Date(now))).toBe(1);
    expect((await listTrash(db)).map((a) => a.id)).toEqual([recent.id]);
    expect(stored(old.image)).toBe(false);
    expect(stored(recent.image)).toBe(true);
    expect(await purgeExpiredTrash(newsroom, new Date(now + 2 * day))).toBe(1);
    expect(stored(recent.image)).toBe(false);
  });
});
