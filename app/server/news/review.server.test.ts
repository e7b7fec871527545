import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { createTestArticle } from "../../../harness/articles";
import { editCondition, type Actor } from "~/lib/permissions";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { NewsStatus } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { updateArticle, type ArticleChanges } from "./articles-write.server";
import { getArticleAccess, listReviewQueue, listSentBack, sendBack } from "./review.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const AUTHOR: Actor = { id: "author-1", role: "author" };
const article = (status: NewsStatus, authorId: string = AUTHOR.id) =>
  createTestArticle(db, { title: "خبر", content: "نص", status, authorId });
const edit = (status: NewsStatus): ArticleChanges => ({
  title: "معدّل",
  content: "نص",
  category: "local",
  status,
  imageUrl: null,
  images: [],
  video: null,
});
const eventCount = async () => (await db.selectFrom("events").select("id").execute()).length;

describe("review", () => {
  it("sends back only an article in review, keeping the note until the next submit", async () => {
    const { id } = await article("review");
    expect(await listReviewQueue(db, 10)).toMatchObject([{ id }]);
    const events = await eventCount();
    await sendBack(db, id, { note: "أضف المصدر" });
    await expect(sendBack(db, id, { note: "مرة ثانية" })).rejects.toMatchObject({
      code: "conflict",
      message: newsroomMessages.notInReview,
    });
    expect(await getArticleAccess(db, id)).toEqual({ authorId: AUTHOR.id, status: "draft", reviewNote: "أضف المصدر" });
    expect(await listSentBack(db, AUTHOR.id, 10)).toMatchObject([{ id, note: "أضف المصدر" }]);
    expect(await listSentBack(db, "someone-else", 10)).toEqual([]);
    expect(await listReviewQueue(db, 10)).toEqual([]);
    expect(await eventCount()).toBe(events);

    await updateArticle(db, id, { ...edit("draft"), onlyIf: editCondition(AUTHOR) });
    expect((await getArticleAccess(db, id))?.reviewNote).toBe("أضف المصدر");
    await updateArticle(db, id, { ...edit("review"), onlyIf: editCondition(AUTHOR) });
    expect(await getArticleAccess(db, id)).toEqual({ authorId: AUTHOR.id, status: "review", reviewNote: null });
  });

  it("refuses an author's edit once the article is published or not theirs, changing nothing", async () => {
    for (const [status, authorId] of [
      ["published", AUTHOR.id],
      ["draft", "another-author"],
    ] as const) {
      const { id } = await article(status, authorId);
      const before = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
      const events = await eventCount();
      await expect(updateArticle(db, id, { ...edit("draft"), onlyIf: editCondition(AUTHOR) })).rejects.toMatchObject({
        code: "forbidden",
        message: newsroomMessages.articleNotYours,
      });
      expect(await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow()).toEqual(before);
      expect(await eventCount()).toBe(events);
    }
  });
});
