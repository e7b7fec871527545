import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../tests/support/temp-db";
import type { DB } from "~/server/db/db.server";
import { createTestArticle } from "../../../tests/support/articles";
import { createShortLink, resolveShortLink, shortIdFor } from "./short-links.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const newArticle = (status: "published" | "draft" = "published") =>
  createTestArticle(db, { title: "عنوان", content: "نص", category: "local", status });

describe("short links", () => {
  it("every new article gets a 6-digit id in range that resolves to it", async () => {
    const { id, shortId } = await newArticle();
    expect(shortId).toMatch(/^\d{6}$/);
    expect(Number(shortId)).toBeGreaterThanOrEqual(100_000);
    expect(Number(shortId)).toBeLessThanOrEqual(999_999);
    expect(await resolveShortLink(db, shortId)).toBe(`/news/${id}`);
    expect(await shortIdFor(db, id)).toBe(shortId);
  });

  it("retries when the drawn id is taken", async () => {
    const first = await newArticle();
    const second = await newArticle();
    await db.deleteFrom("short_links").where("news_id", "=", second.id).execute();
    const draws = [first.shortId, first.shortId, "654321"];
    const shortId = await createShortLink(db, second.id, () => draws.shift()!);
    expect(shortId).toBe("654321");
    expect(await resolveShortLink(db, first.shortId)).toBe(`/news/${first.id}`);
    expect(await resolveShortLink(db, "654321")).toBe(`/news/${second.id}`);
  });

  it("does not resolve unknown ids, malformed ids or drafts for the public", async () => {
    const draft = await newArticle("draft");
    expect(await resolveShortLink(db, "12ab56")).toBeNull();
    expect(await resolveShortLink(db, draft.shortId)).toBeNull();
    expect(await resolveShortLink(db, draft.shortId, { includeDrafts: true })).toBe(`/news/${draft.id}`);
    await db.deleteFrom("news").where("id", "=", draft.id).execute();
    expect(await resolveShortLink(db, draft.shortId, { includeDrafts: true })).toBeNull();
  });
});
