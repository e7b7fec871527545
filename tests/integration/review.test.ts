/**
 * Review over HTTP: an author submits, an editor sends back with a note the author sees, the author
 * resubmits (the note goes), the editor publishes (an outbox event); the API's status and publishAt
 * are checked with Arabic messages, and a refusal stores nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { imageDetailMessages, newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { get, post, type Session } from "../../harness/http-client";
import type { TestServer } from "../../harness/test-server";
import { basedOn, createTestArticle, publishForm, storedVersion } from "../../harness/articles";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let author: Session;
let editor: Session;

/** The API's edit of `id`, based on its version now. */
const put = async (id: string, body: FormData, session: Session) =>
  fetch(`${server.url}/api/news/${id}`, {
    method: "PUT",
    body: basedOn(await storedVersion(db, id), body),
    redirect: "manual",
    headers: { cookie: session.cookie },
  });
const rowOf = (id: string) =>
  db.selectFrom("news").select(["status", "review_note", "author_id"]).where("id", "=", id).executeTakeFirstOrThrow();
const eventCount = async () => (await db.selectFrom("events").select("id").execute()).length;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  author = await sessionAs(db, server, { email: "author@example.com", username: "كاتبة", role: "author" });
  editor = await sessionAs(db, server, { email: "editor@example.com", username: "محررة", role: "editor" });
});
afterAll(() => stopServerAndDb({ server, db }));

describe("review", () => {
  it("goes from submission to a note, a fix and publication", async () => {
    const created = await post(`${server.url}/api/news`, publishForm("خبر الكاتبة", { status: "review" }), author);
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await rowOf(id)).toMatchObject({ status: "review", review_note: null });

    const queue = await (await get(`${server.url}/dashboard`, editor)).text();
    expect(queue).toContain(newsroomMessages.reviewQueue);
    expect(queue).toContain("خبر الكاتبة");
    expect(queue).toContain("كاتبة");

    const sentBack = await post(`${server.url}/edit-news/${id}/send-back`, { note: "أضيفي مصدر الخبر" }, editor);
    expect(sentBack.status).toBe(302);
    expect(await rowOf(id)).toMatchObject({ status: "draft", review_note: "أضيفي مصدر الخبر" });
    expect(await (await get(`${server.url}/edit-news/${id}`, author)).text()).toContain("أضيفي مصدر الخبر");
    expect(await (await get(`${server.url}/dashboard`, author)).text()).toContain("أضيفي مصدر الخبر");
    expect(
      ((await (await get(`${server.url}/api/news/${id}`, author)).json()) as { reviewNote: string }).reviewNote,
    ).toBe("أضيفي مصدر الخبر");

    expect((await put(id, publishForm("خبر الكاتبة مع المصدر", { status: "review" }), author)).status).toBe(200);
    expect(await rowOf(id)).toMatchObject({ status: "review", review_note: null });

    const events = await eventCount();
    expect((await put(id, publishForm("خبر الكاتبة مع المصدر", { status: "published" }), editor)).status).toBe(200);
    expect(await rowOf(id)).toMatchObject({ status: "published" });
    const last = await db
      .selectFrom("events")
      .select(["kind", "article_id"])
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(await eventCount()).toBe(events + 1);
    expect(last).toEqual({ kind: "article-published", article_id: id });
    // Published, it is no longer the author's to edit.
    expect((await put(id, publishForm("تعديل متأخر", { status: "draft" }), author)).status).toBe(403);
  });

  it("sends back only an article in review, and only with a note", async () => {
    const created = await post(`${server.url}/api/news`, publishForm("مسودة", { status: "draft" }), author);
    const { id } = (await created.json()) as { id: string };
    const empty = await post(`${server.url}/edit-news/${id}/send-back`, { note: "   " }, editor);
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain(newsroomMessages.reviewNoteRequired);
    const notInReview = await post(`${server.url}/edit-news/${id}/send-back`, { note: "ملاحظة" }, editor);
    expect(notInReview.status).toBe(409);
    expect(await notInReview.text()).toContain(newsroomMessages.notInReview);
    expect(await rowOf(id)).toMatchObject({ status: "draft", review_note: null });
  });
});

describe("the JSON API's status and publishAt", () => {
  const refusals: [string, Record<string, string>, Session | "author", number, string][] = [
    ["a bad date", { status: "scheduled", publishAt: "غداً صباحاً" }, "author", 400, newsroomMessages.publishAtInvalid],
    ["no time for a scheduled article", { status: "scheduled" }, "author", 400, newsroomMessages.publishAtRequired],
    [
      "a time gone by",
      { status: "scheduled", publishAt: "2020-01-01T06:00:00+02:00" },
      "author",
      400,
      newsroomMessages.publishAtPast,
    ],
    ["the trash as a status", { status: "trashed" }, "author", 400, newsroomMessages.statusInvalid],
    ["an author publishing", { status: "published" }, "author", 403, newsroomMessages.statusNotAllowed],
  ];
  for (const [name, fields, , status, message] of refusals) {
    it(`refuses ${name} with ${status} and an Arabic message, storing nothing`, async () => {
      const session = status === 403 ? author : editor;
      const before = await db.selectFrom("news").select("id").execute();
      const events = await eventCount();
      const response = await post(`${server.url}/api/news`, publishForm("مرفوض", fields), session);
      expect(response.status).toBe(status);
      const { error } = (await response.json()) as { error: { message: string; fields?: Record<string, string> } };
      // Validation names the field (publishAt or status); a refusal says why in its message.
      expect([error.message, ...Object.values(error.fields ?? {})]).toContain(message);
      expect(await db.selectFrom("news").select("id").execute()).toEqual(before);
      expect(await eventCount()).toBe(events);
    });
  }

  it("takes a scheduled article with an ISO 8601 publish time from an editor", async () => {
    const publishAt = new Date(Date.now() + 3_600_000).toISOString();
    const response = await post(
      `${server.url}/api/news`,
      publishForm("مجدول", { status: "scheduled", publishAt }),
      editor,
    );
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect((await rowOf(id)).status).toBe("scheduled");
  });
});

describe("a field the server would not use is refused by name, not dropped", () => {
  const inTwoMinutes = new Date(Date.now() + 120_000).toISOString();
  const document = JSON.stringify({
    type: "doc",
    content: [{ type: "paragraph", content: [{ type: "text", text: "نص" }] }],
  });
  const refusals: [string, Record<string, string>, string, string][] = [
    [
      "a publish time with «published»",
      { status: "published", publishAt: inTwoMinutes },
      "publishAt",
      newsroomMessages.publishAtNotScheduled,
    ],
    [
      "a publish time with «draft»",
      { status: "draft", publishAt: inTwoMinutes },
      "publishAt",
      newsroomMessages.publishAtNotScheduled,
    ],
    [
      "a field the form does not have",
      { status: "draft", publish_at: inTwoMinutes },
      "publish_at",
      newsroomMessages.fieldUnknown,
    ],
    ["both the document and plain text", { body: document }, "content", newsroomMessages.contentAndBody],
    [
      "an image to remove that the article does not have",
      { removeImages: "/media/news-images/other.webp" },
      "imageDetails",
      imageDetailMessages.notOfArticle,
    ],
    [
      "a video to remove that the article does not have",
      { removeVideo: "on" },
      "video",
      newsroomMessages.noVideoToRemove,
    ],
  ];
  const stored = async () => JSON.stringify(await db.selectFrom("news").selectAll().orderBy("id").execute());
  let draftId: string;
  beforeAll(async () => {
    draftId = (await createTestArticle(db, { title: "مسودة قائمة", status: "draft" })).id;
  });

  for (const [name, fields, field, message] of refusals) {
    for (const method of ["POST", "PUT"] as const) {
      it(`${method}: ${name} is a 400 naming ${field}, storing nothing`, async () => {
        const before = [await stored(), await eventCount()];
        const form = publishForm("لن يُحفظ", fields);
        const response =
          method === "POST" ? await post(`${server.url}/api/news`, form, editor) : await put(draftId, form, editor);
        expect(response.status).toBe(400);
        const { error } = (await response.json()) as { error: { fields?: Record<string, string> } };
        expect(error.fields?.[field]).toBe(message);
        expect([await stored(), await eventCount()]).toEqual(before);
      });
    }
  }

  it("PUT: a submission id, which only creating uses, is a 400 saying so", async () => {
    const before = await stored();
    const response = await put(
      draftId,
      publishForm("لن يُحفظ", { status: "draft", submissionId: "a-submission-id" }),
      editor,
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { fields?: Record<string, string> } }).error.fields?.form).toBe(
      newsroomMessages.submissionIdOnEdit,
    );
    expect(await stored()).toBe(before);
  });

  it("POST: the legacy image address is kept on a new article as it is on an edit", async () => {
    const response = await post(
      `${server.url}/api/news`,
      publishForm("بصورة من رابط", { imageUrl: "https://example.com/photo.jpg" }),
      editor,
    );
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };
    expect(
      (await db.selectFrom("news").select("image_url").where("id", "=", id).executeTakeFirstOrThrow()).image_url,
    ).toBe("https://example.com/photo.jpg");
  });

  it("the dashboard's page posted without JavaScript: its hidden time goes with the status chosen", async () => {
    const response = await post(
      `${server.url}/dashboard`,
      publishForm("نشر الآن من الصفحة", { status: "published", publishAt: "2030-01-01T10:00" }),
      editor,
    );
    expect(response.status).toBe(302);
    const row = await db
      .selectFrom("news")
      .select(["status", "publish_at"])
      .where("title", "=", "نشر الآن من الصفحة")
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: "published", publish_at: null });
  });
});
