import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Role } from "~/lib/constants";
import { dashboardFilterFromUrl, UNFILTERED, type DashboardFilter } from "~/lib/dashboard-filter";
import { createTempDatabase } from "../../../harness/temp-db";
import { articleAt } from "../../../harness/articles";
import type { DB } from "~/server/db/db.server";
import { listAuthorArticles } from "./author-articles.server";
import { listAllForDashboard, listNewsroomMembers } from "./dashboard-list.server";
import { getArticle, listLatest } from "./articles-read.server";
import { updateArticle, type NewArticle } from "./articles-write.server";

let db: DB;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
});
afterEach(async () => cleanup());

async function user(name: string, role: Role = "author"): Promise<string> {
  const id = `user-${name}-${role}`;
  const now = new Date().toISOString();
  await db
    .insertInto("user")
    .values({
      id,
      name,
      email: `${encodeURIComponent(name)}-${role}@example.com`,
      emailVerified: 0,
      image: null,
      createdAt: now,
      updatedAt: now,
      role,
    })
    .execute();
  return id;
}

const article = (minutes: number, overrides: Partial<NewArticle> = {}) => articleAt(db, minutes, overrides);

const ALL = UNFILTERED;

describe("credits", () => {
  it("credits the author by name with their page, and a byline text instead when there is one", async () => {
    const author = await user("سارة الحلبي");
    const own = await article(1, { authorId: author });
    const wire = await article(2, { authorId: author, byline: "وكالات" });
    const anonymous = await article(3);
    expect((await getArticle(db, own))?.credit).toEqual({ name: "سارة الحلبي", isAuthor: true });
    expect((await getArticle(db, wire))?.credit).toEqual({ name: "وكالات", isAuthor: false });
    expect((await getArticle(db, anonymous))?.credit).toBeNull();
    const listed = await listLatest(db, { limit: 10 });
    expect(listed.map((n) => n.credit?.name ?? null)).toEqual([null, "وكالات", "سارة الحلبي"]);
  });

  it("keeps the byline through an edit that does not name it, and clears it when told", async () => {
    const id = await article(1, { byline: "مراسلنا في عكار" });
    const edit = {
      title: "خبر",
      content: "نص",
      category: "local" as const,
      status: "published" as const,
      imageUrl: null,
      images: [],
      video: null,
    };
    await updateArticle(db, id, edit);
    expect((await getArticle(db, id))?.byline).toBe("مراسلنا في عكار");
    await updateArticle(db, id, { ...edit, byline: null });
    expect((await getArticle(db, id))?.byline).toBeNull();
  });
});

describe("listAllForDashboard", () => {
  it("searches by words as readers' search does, never by wildcards, and filters by status, category and author, together", async () => {
    const sara = await user("سارة");
    const omar = await user("عمر", "editor");
    await article(1, { title: "انتخابات طرابلس", authorId: sara, status: "draft" });
    await article(2, { title: "انتخابات عكار", authorId: omar, category: "sports" });
    await article(3, { title: "نسبة 100% في الامتحانات", authorId: sara, status: "review" });
    await article(4, { title: "طقس الغد", authorId: sara, status: "scheduled" });
    const titles = async (filter: Partial<DashboardFilter>) =>
      (await listAllForDashboard(db, { ...ALL, ...filter }, 1, 20)).items.map((n) => n.title);
    expect(await titles({ query: "انتخابات" })).toEqual(["انتخابات عكار", "انتخابات طرابلس"]);
    expect(await titles({ query: "100%" })).toEqual(["نسبة 100% في الامتحانات"]);
    expect(await titles({ query: "%" })).toEqual([]);
    expect(await titles({ query: "_" })).toEqual([]);
    expect(await titles({ status: "review" })).toEqual(["نسبة 100% في الامتحانات"]);
    expect(await titles({ status: "scheduled" })).toEqual(["طقس الغد"]);
    expect(await titles({ category: "sports" })).toEqual(["انتخابات عكار"]);
    expect(await titles({ authorId: sara })).toEqual(["طقس الغد", "نسبة 100% في الامتحانات", "انتخابات طرابلس"]);
    expect(await titles({ authorId: sara, query: "انتخابات", status: "draft" })).toEqual(["انتخابات طرابلس"]);
    expect(await titles({ authorId: omar, status: "draft" })).toEqual([]);
  });

  it("searches the standfirst and the body text too, not only titles", async () => {
    await article(1, { title: "خبر أول", content: "وصل الوفد إلى ميناء صيدا صباحاً" });
    await article(2, { title: "خبر ثان", content: "نص آخر", story: { standfirst: "مقدمة عن الميناء الجديد" } });
    await article(3, { title: "خبر ثالث", content: "لا شيء هنا" });
    const titles = async (query: string) =>
      (await listAllForDashboard(db, { ...ALL, query }, 1, 20)).items.map((n) => n.title);
    expect(await titles("ميناء صيدا")).toEqual(["خبر أول"]);
    expect(await titles("الميناء الجديد")).toEqual(["خبر ثان"]);
    expect(await titles("ميناء")).toEqual(["خبر ثان", "خبر أول"]);
  });

  it("pages newest first, says whether more follow, and leaves the trash out", async () => {
    for (let i = 0; i < 5; i++) await article(i);
    await db.updateTable("news").set({ status: "trashed" }).where("title", "=", "خبر 4").execute();
    const first = await listAllForDashboard(db, ALL, 1, 2);
    const last = await listAllForDashboard(db, ALL, 2, 2);
    expect(first.items.map((n) => n.title)).toEqual(["خبر 3", "خبر 2"]);
    expect(first.hasMore).toBe(true);
    expect(last.items.map((n) => n.title)).toEqual(["خبر 1", "خبر 0"]);
    expect(last.hasMore).toBe(false);
  });

  it("reads its filters from the URL, ignoring what it does not know", () => {
    expect(
      dashboardFilterFromUrl(
        new URL("http://x/dashboard?q=%20%D8%AE%D8%A8%D8%B1%20&status=review&category=sports&author=u1"),
      ),
    ).toEqual({
      query: "خبر",
      status: "review",
      category: "sports",
      authorId: "u1",
    });
    expect(dashboardFilterFromUrl(new URL("http://x/dashboard?status=trashed&category=x&author=&q="))).toEqual(ALL);
    expect(dashboardFilterFromUrl(new URL("http://x/dashboard?author=a%00b&q=%00%01"))).toEqual(ALL);
    expect(dashboardFilterFromUrl(new URL("http://x/dashboard?q=a%00b")).query).toBe("a b");
  });

  it("offers the newsroom's members, not its readers, as authors", async () => {
    await user("قارئ", "user");
    const sara = await user("سارة");
    const omar = await user("عمر", "admin");
    expect(await listNewsroomMembers(db)).toEqual([
      { id: sara, name: "سارة" },
      { id: omar, name: "عمر" },
    ]);
  });
});

describe("listAuthorArticles", () => {
  it("lists an author's published articles credited to them, newest first, by pages", async () => {
    const sara = await user("سارة الحلبي");
    const other = await user("عمر");
    for (let i = 0; i < 3; i++) await article(i, { authorId: sara });
    await article(10, { authorId: sara, status: "draft" });
    await article(11, { authorId: sara, byline: "وكالات" });
    await article(12, { authorId: other });
    const first = await listAuthorArticles(db, "سارة الحلبي", 1, 2);
    expect(first?.items.map((n) => n.title)).toEqual(["خبر 2", "خبر 1"]);
    expect(first?.hasMore).toBe(true);
    const second = await listAuthorArticles(db, "سارة الحلبي", 2, 2);
    expect(second).toEqual({ items: [expect.objectContaining({ title: "خبر 0" })], hasMore: false });
  });

  it("knows no one by an unknown name, and an author without articles has an empty page", async () => {
    await user("سارة");
    expect(await listAuthorArticles(db, "لا أحد", 1, 10)).toBeNull();
    expect(await listAuthorArticles(db, "سارة", 1, 10)).toEqual({ items: [], hasMore: false });
    expect(await listAuthorArticles(db, "%", 1, 10)).toBeNull();
  });
});
