/** The dashboard's list search matches Arabic as the public search does, over every story the newsroom holds. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import type { TestServer } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { get, type Session } from "../../harness/http-client";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let editor: Session;

/** The titles of the dashboard list's rows for `query`. */
async function dashboardTitles(query: string): Promise<string> {
  const html = await (await get(`${server.url}/dashboard?q=${encodeURIComponent(query)}`, editor)).text();
  const start = html.indexOf('data-testid="dashboard-filters"');
  return html.slice(start, html.indexOf("</nav>", start));
}

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  editor = await sessionAs(db, server, { email: "editor@example.com", username: "محررة", role: "editor" });
  await createTestArticle(db, { title: "بلدية المنية تفتتح حديقة", status: "draft" });
  await createTestArticle(db, { title: "طريق جديد", content: "أشغال على طريق المنية الساحلي", status: "review" });
  await createTestArticle(db, {
    title: "ملعب بلدي",
    story: { standfirst: "فوز فريق الكورة في الدوري" },
    status: "scheduled",
    publishAt: "2030-01-01T08:00:00.000Z",
  });
  await createTestArticle(db, { title: "ارتفاع أسعار المحروقات", status: "published" });
  await createTestArticle(db, { title: "خبر لا صلة له", content: "نص آخر", status: "draft" });
});
afterAll(() => stopServerAndDb({ server, db }));

describe("the dashboard's search", () => {
  it("folds spelling as the public search does, in drafts, review, scheduled and published stories", async () => {
    const minieh = await dashboardTitles("المنيه");
    expect(minieh).toContain("بلدية المنية تفتتح حديقة");
    expect(minieh).toContain("طريق جديد");
    expect(minieh).not.toContain("خبر لا صلة له");
    expect(await dashboardTitles("الكوره")).toContain("ملعب بلدي");
    const prices = await dashboardTitles("اسعار");
    expect(prices).toContain("ارتفاع أسعار المحروقات");
    expect(prices).not.toContain("بلدية المنية");
  });

  it("finds half-typed words and clitics, and every word must match", async () => {
    expect(await dashboardTitles("والمنيه")).toContain("بلدية المنية تفتتح حديقة");
    expect(await dashboardTitles("حدي")).toContain("بلدية المنية تفتتح حديقة");
    const both = await dashboardTitles("المنية حديقة");
    expect(both).toContain("بلدية المنية تفتتح حديقة");
    expect(both).not.toContain("طريق جديد");
  });
});
