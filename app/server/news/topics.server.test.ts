import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { articleAt, createTestArticle, storedVersion } from "../../../harness/articles";
import { topicMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { readEventsAfter, newestEventId } from "~/server/outbox/outbox.server";
import { updateArticle, type ArticleChanges } from "./articles-write.server";
import { restoreRevision } from "./restore-revision.server";
import { listRevisions } from "./revisions.server";
import { listTopicsWithCounts, mergeTopics, renameTopic } from "./topic-admin.server";
import { findTopicBySlug, listSharingTopics, listTopicPage, suggestTopics, topicsOfArticle } from "./topics.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const EDITOR = (names: string[]) => ({ names, mayCreate: true });
const AUTHOR = (names: string[]) => ({ names, mayCreate: false });
const names = async (id: string) => (await topicsOfArticle(db, id)).map((topic) => topic.name);
const edit = (overrides: Partial<ArticleChanges>): ArticleChanges => ({
  title: "عنوان",
  content: "نص",
  category: "local",
  status: "published",
  imageUrl: null,
  images: [],
  video: null,
  ...overrides,
});

describe("an article's topics", () => {
  it("are created by an editor's write, in order, one topic however it is spelt", async () => {
    const a = (await createTestArticle(db, { topics: EDITOR(["المنية", "طرابلس"]) })).id;
    const b = (await createTestArticle(db, { topics: EDITOR(["طرابلس", "المنيه"]) })).id;
    expect(await names(a)).toEqual(["المنية", "طرابلس"]);
    expect(await names(b)).toEqual(["طرابلس", "المنية"]);
    expect((await listTopicsWithCounts(db)).map((t) => [t.name, t.articles])).toEqual([
      ["المنية", 2],
      ["طرابلس", 2],
    ]);
  });

  it("refuse an author's unknown topic and store nothing; existing ones are theirs to pick", async () => {
    await createTestArticle(db, { topics: EDITOR(["عكار"]) });
    const before = await db.selectFrom("news").select("id").execute();
    await expect(
      createTestArticle(db, { title: "من كاتب", topics: AUTHOR(["عكار", "بلدة جديدة"]) }),
    ).rejects.toMatchObject({
      code: "validation",
      fields: { topics: `${topicMessages.unknownForAuthor} بلدة جديدة` },
    });
    expect(await db.selectFrom("news").select("id").execute()).toEqual(before);
    expect((await listTopicsWithCounts(db)).map((t) => t.name)).toEqual(["عكار"]);
    const id = (await createTestArticle(db, { topics: AUTHOR(["عكّار"]) })).id;
    expect(await names(id)).toEqual(["عكار"]);
  });

  it("change with an edit, stay when an edit leaves them out, and come back with a revision", async () => {
    const id = (await createTestArticle(db, { topics: EDITOR(["المنية"]) })).id;
    await updateArticle(db, id, edit({ topics: EDITOR(["الضنية", "المنية"]) }));
    expect(await names(id)).toEqual(["الضنية", "المنية"]);
    await updateArticle(db, id, edit({ title: "بلا مواضيع في الطلب" }));
    expect(await names(id)).toEqual(["الضنية", "المنية"]);
    await updateArticle(db, id, edit({ topics: EDITOR([]) }));
    expect(await names(id)).toEqual([]);
    const revisions = await listRevisions(db, id);
    // The newest revision is the version the last edit replaced: both topics.
    await restoreRevision(db, id, revisions[0]!.id, "someone", {
      mode: "full",
      confirmedRemovals: [],
      baseVersion: await storedVersion(db, id),
    });
    expect(await names(id)).toEqual(["الضنية", "المنية"]);
  });

  it("suggest by normalised prefix, with or without the article", async () => {
    await createTestArticle(db, { topics: EDITOR(["المنية", "المنيارة", "طرابلس", "أزمة الكهرباء"]) });
    expect((await suggestTopics(db, "المنيه")).map((t) => t.name)).toEqual(["المنية"]);
    expect((await suggestTopics(db, "مني")).map((t) => t.name)).toEqual(["المنية", "المنيارة"]);
    expect((await suggestTopics(db, "كهرب")).map((t) => t.name)).toEqual(["أزمة الكهرباء"]);
    expect(await suggestTopics(db, "   ")).toEqual([]);
    expect(await suggestTopics(db, "%_")).toEqual([]);
  });
});

describe("renaming and merging", () => {
  it("renames a topic, keeps its old address as a redirect and writes one outbox event", async () => {
    const id = (await createTestArticle(db, { topics: EDITOR(["المنيه"]) })).id;
    const [topic] = await topicsOfArticle(db, id);
    const last = await newestEventId(db);
    await renameTopic(db, topic!.id, "المنية");
    expect(await names(id)).toEqual(["المنية"]);
    expect(await findTopicBySlug(db, "المنيه")).toEqual({ kind: "moved", slug: "المنية" });
    expect((await readEventsAfter(db, last, 10)).map((e) => e.kind)).toEqual(["topics-changed"]);
  });

  it("refuses a name another topic has, or one with nothing in it", async () => {
    await createTestArticle(db, { topics: EDITOR(["المنية", "طرابلس"]) });
    const [minieh, tripoli] = await listTopicsWithCounts(db);
    await expect(renameTopic(db, tripoli!.id, "المنيه")).rejects.toMatchObject({
      code: "conflict",
      message: topicMessages.nameTaken,
    });
    await expect(renameTopic(db, minieh!.id, "؟؟")).rejects.toMatchObject({
      code: "validation",
      message: topicMessages.nameEmpty,
    });
    await expect(renameTopic(db, minieh!.id, "ب".repeat(61))).rejects.toMatchObject({
      message: topicMessages.nameTooLong,
    });
  });

  it("merges one topic into another: its articles move once, its addresses lead to the other", async () => {
    const both = (await createTestArticle(db, { topics: EDITOR(["بلدية طرابلس", "طرابلس"]) })).id;
    const one = (await createTestArticle(db, { topics: EDITOR(["عكار", "بلدية طرابلس"]) })).id;
    const topics = await listTopicsWithCounts(db);
    const from = topics.find((t) => t.name === "بلدية طرابلس")!;
    const into = topics.find((t) => t.name === "طرابلس")!;
    await renameTopic(db, from.id, "مجلس بلدية طرابلس");
    await mergeTopics(db, from.id, into.id);
    expect(await names(both)).toEqual(["طرابلس"]);
    expect(await names(one)).toEqual(["عكار", "طرابلس"]);
    expect(await findTopicBySlug(db, "مجلس-بلدية-طرابلس")).toEqual({ kind: "moved", slug: "طرابلس" });
    expect(await findTopicBySlug(db, "بلدية-طرابلس")).toEqual({ kind: "moved", slug: "طرابلس" });
    expect((await listTopicsWithCounts(db)).map((t) => [t.name, t.articles])).toEqual([
      ["طرابلس", 2],
      ["عكار", 1],
    ]);
    await expect(mergeTopics(db, into.id, into.id)).rejects.toMatchObject({ message: topicMessages.mergeSame });
    await expect(mergeTopics(db, from.id, into.id)).rejects.toMatchObject({ code: "not-found" });
    // A name merged away now names the topic it went into.
    const again = (await createTestArticle(db, { topics: AUTHOR(["بلدية طرابلس"]) })).id;
    expect(await names(again)).toEqual(["طرابلس"]);
    // A rename may take an address a merge left behind: it is that topic's own again.
    const akkar = (await listTopicsWithCounts(db)).find((t) => t.name === "عكار")!;
    await renameTopic(db, akkar.id, "بلدية طرابلس");
    expect(await findTopicBySlug(db, "بلدية-طرابلس")).toMatchObject({ kind: "topic", topic: { name: "بلدية طرابلس" } });
  });

  it("finds a topic under another spelling of its address", async () => {
    await createTestArticle(db, { topics: EDITOR(["المنية"]) });
    expect(await findTopicBySlug(db, "المنيه")).toEqual({ kind: "moved", slug: "المنية" });
    expect(await findTopicBySlug(db, "لا-شيء")).toBeNull();
    expect(await findTopicBySlug(db, "المنية\0")).toBeNull();
  });
});

describe("lists by topic", () => {
  it("pages a topic's published articles, newest first", async () => {
    const ids = [];
    for (let minute = 1; minute <= 8; minute++) ids.push(await articleAt(db, minute, { topics: EDITOR(["طرابلس"]) }));
    await articleAt(db, 9, { topics: EDITOR(["طرابلس"]), status: "draft" });
    const [topic] = await topicsOfArticle(db, ids[0]!);
    const first = await listTopicPage(db, topic!.id, 1, 6);
    expect(first.items.map((i) => i.title)).toEqual(["خبر 8", "خبر 7", "خبر 6", "خبر 5", "خبر 4", "خبر 3"]);
    expect(first.hasMore).toBe(true);
    const second = await listTopicPage(db, topic!.id, 2, 6);
    expect(second).toMatchObject({ hasMore: false });
    expect(second.items.map((i) => i.title)).toEqual(["خبر 2", "خبر 1"]);
  });

  it("finds the articles sharing most topics first, never the article itself", async () => {
    const reading = await articleAt(db, 1, { topics: EDITOR(["المنية", "الكهرباء"]) });
    await articleAt(db, 2, { topics: EDITOR(["المنية"]) });
    await articleAt(db, 3, { topics: EDITOR(["المنية", "الكهرباء"]) });
    await articleAt(db, 4, { topics: EDITOR(["عكار"]) });
    await articleAt(db, 5, { topics: EDITOR(["الكهرباء"]) });
    expect((await listSharingTopics(db, reading, 2)).map((i) => i.title)).toEqual(["خبر 3", "خبر 5"]);
  });
});
