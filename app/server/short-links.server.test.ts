import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../tests/support/temp-db";
import type { DB } from "./db/db.server";
import { createArticle } from "./news.server";
import { createShortLink, resolveShortLink, shortIdFor } from "./short-links.server";
import { countSiteVisit, totalSiteVisits } from "./site-stats.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const newArticle = (status: "published" | "draft" = "published") =>
  createArticle(db, { title: "عنوان", content: "نص", category: "local", status });

describe("short links", () => {
  it("creates a 6-digit id in range that resolves to the article", async () => {
    const id = await newArticle();
    const shortId = await createShortLink(db, id);
    expect(shortId).toMatch(/^\d{6}$/);
    expect(Number(shortId)).toBeGreaterThanOrEqual(100_000);
    expect(Number(shortId)).toBeLessThanOrEqual(999_999);
    expect(await resolveShortLink(db, shortId)).toBe(`/news/${id}`);
    expect(await shortIdFor(db, id)).toBe(shortId);
  });

  it("retries when the drawn id is taken", async () => {
    const first = await newArticle();
    const second = await newArticle();
    await createShortLink(db, first, () => "123456");
    const draws = ["123456", "123456", "654321"];
    const shortId = await createShortLink(db, second, () => draws.shift()!);
    expect(shortId).toBe("654321");
    expect(await resolveShortLink(db, "123456")).toBe(`/news/${first}`);
  });

  it("does not resolve unknown ids, malformed ids or drafts for the public", async () => {
    const draft = await newArticle("draft");
    const shortId = await createShortLink(db, draft);
    expect(await resolveShortLink(db, "999999")).toBeNull();
    expect(await resolveShortLink(db, "12ab56")).toBeNull();
    expect(await resolveShortLink(db, shortId)).toBeNull();
    expect(await resolveShortLink(db, shortId, { includeDrafts: true })).toBe(`/news/${draft}`);
  });
});

describe("site statistics", () => {
  it("counts each site visit once", async () => {
    expect(await totalSiteVisits(db)).toBe(0);
    await countSiteVisit(db);
    await countSiteVisit(db);
    expect(await totalSiteVisits(db)).toBe(2);
  });
});
