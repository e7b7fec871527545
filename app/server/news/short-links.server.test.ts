import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import type { DB } from "~/server/db/db.server";
import { createTestArticle, canonicalPath } from "../../../harness/articles";
import { updateArticle, type ArticleChanges } from "./articles-write.server";
import { createShortLink, resolveShortLink, shortIdFor } from "./short-links.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const newArticle = (status: "published" | "draft" = "published") =>
  createTestArticle(db, { title: "عنوان", content: "نص", category: "local", status });

async function published() {
  const { id, shortId } = await newArticle();
  if (!shortId) throw new Error("a published article has a short link");
  return { id, shortId };
}

const edit = (status: "published" | "draft"): ArticleChanges => ({
  title: "عنوان",
  content: "نص",
  category: "local",
  status,
  imageUrl: null,
  images: [],
  video: null,
});

describe("short links", () => {
  it("every new article gets a 6-digit id in range that resolves to it", async () => {
    const { id, shortId } = await published();
    expect(shortId).toMatch(/^\d{6}$/);
    expect(Number(shortId)).toBeGreaterThanOrEqual(100_000);
    expect(Number(shortId)).toBeLessThanOrEqual(999_999);
    expect(await resolveShortLink(db, shortId)).toBe(await canonicalPath(db, id));
    expect(await shortIdFor(db, id)).toBe(shortId);
  });

  it("retries when the drawn id is taken", async () => {
    const first = await published();
    const second = await published();
    await db.deleteFrom("short_links").where("news_id", "=", second.id).execute();
    const draws = [first.shortId, first.shortId, "654321"];
    const shortId = await createShortLink(db, second.id, () => draws.shift()!);
    expect(shortId).toBe("654321");
    expect(await resolveShortLink(db, first.shortId)).toBe(await canonicalPath(db, first.id));
    expect(await resolveShortLink(db, "654321")).toBe(await canonicalPath(db, second.id));
  });

  it("a draft gets none; its first publication makes it, and it stays the same after", async () => {
    const draft = await newArticle("draft");
    expect(draft.shortId).toBeNull();
    expect(await shortIdFor(db, draft.id)).toBeNull();
    await updateArticle(db, draft.id, edit("draft"));
    expect(await shortIdFor(db, draft.id)).toBeNull();
    await updateArticle(db, draft.id, edit("published"));
    const shortId = await shortIdFor(db, draft.id);
    expect(shortId).toMatch(/^\d{6}$/);
    expect(await resolveShortLink(db, shortId!)).toBe(await canonicalPath(db, draft.id));
    await updateArticle(db, draft.id, edit("draft"));
    await updateArticle(db, draft.id, edit("published"));
    expect(await shortIdFor(db, draft.id)).toBe(shortId);
    expect(
      await db.selectFrom("short_links").select("short_id").where("news_id", "=", draft.id).execute(),
    ).toHaveLength(1);
  });

  it("does not resolve unknown ids, malformed ids or unpublished articles, whoever follows them", async () => {
    const { id, shortId } = await published();
    await updateArticle(db, id, edit("draft"));
    expect(await resolveShortLink(db, "12ab56")).toBeNull();
    expect(await resolveShortLink(db, shortId)).toBeNull();
  });
});
