import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import { getArticle } from "~/server/news/articles-read.server";
import { type NewArticle } from "~/server/news/articles-write.server";
import { createTestArticle } from "../../../tests/support/articles";
import { createTempDatabase } from "../../../harness/temp-db";
import { visitMark } from "./visit-marks.server";
import { countArticleVisit, countSiteVisit, totalSiteVisits } from "./visits.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

async function article(overrides: Partial<NewArticle> = {}) {
  const created = await createTestArticle(db, { title: "خبر", content: "نص الخبر", category: "local", ...overrides });
  return created.id;
}

describe("countArticleVisit", () => {
  const SECRET = "visit-secret-visit-secret-visit-secret";

  it("counts each client once a day per article", async () => {
    const id = await article({ visits: 5 });
    const today = new Date("2026-03-01T10:00:00Z");
    expect(await countArticleVisit(db, id, visitMark(SECRET, "203.0.113.7", `news:${id}`, today))).toBe("counted");
    expect(await countArticleVisit(db, id, visitMark(SECRET, "203.0.113.7", `news:${id}`, today))).toBe("seen");
    expect(await countArticleVisit(db, id, visitMark(SECRET, "203.0.113.8", `news:${id}`, today))).toBe("counted");
    expect(await countArticleVisit(db, id, visitMark(SECRET, "203.0.113.7", `news:${id}`, new Date("2026-03-02T10:00:00Z")))).toBe("counted");
    expect((await getArticle(db, id))?.visits).toBe(8);
  });

  it("keeps no address and no earlier day", async () => {
    const id = await article();
    await countArticleVisit(db, id, visitMark(SECRET, "203.0.113.7", `news:${id}`, new Date("2026-03-01T10:00:00Z")));
    await countArticleVisit(db, id, visitMark(SECRET, "203.0.113.7", `news:${id}`, new Date("2026-03-02T10:00:00Z")));
    const marks = await db.selectFrom("visit_marks").selectAll().execute();
    expect(marks).toHaveLength(1);
    expect(marks[0]?.day).toBe("2026-03-02");
    expect(JSON.stringify(marks)).not.toContain("203.0.113");
  });

  it("counts nothing for a missing id or a draft", async () => {
    const draft = await article({ status: "draft", visits: 2 });
    expect(await countArticleVisit(db, "missing", visitMark(SECRET, "203.0.113.7", "news:missing"))).toBe("missing");
    expect(await countArticleVisit(db, draft, visitMark(SECRET, "203.0.113.7", `news:${draft}`))).toBe("missing");
    expect((await getArticle(db, draft, { includeDrafts: true }))?.visits).toBe(2);
  });
});

describe("site statistics", () => {
  it("counts each client's site visit once a day", async () => {
    const secret = "visit-secret-visit-secret-visit-secret";
    expect(await totalSiteVisits(db)).toBe(0);
    expect(await countSiteVisit(db, visitMark(secret, "203.0.113.7", "site"))).toBe(true);
    expect(await countSiteVisit(db, visitMark(secret, "203.0.113.7", "site"))).toBe(false);
    expect(await countSiteVisit(db, visitMark(secret, "203.0.113.8", "site"))).toBe(true);
    expect(await totalSiteVisits(db)).toBe(2);
  });
});
