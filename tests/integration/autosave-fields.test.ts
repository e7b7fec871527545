import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTOSAVED_FIELDS } from "~/lib/article-form-fields";
import { EDITORS } from "~/lib/audience";
import type { NewsArticle } from "~/lib/news";
import type { DB } from "~/server/db/db.server";
import { getArticle } from "~/server/news/articles-read.server";
import { topicsOfArticle } from "~/server/news/topics.server";
import type { TestServer } from "../../harness/test-server";
import { articleForm, storedVersion } from "../../harness/articles";
import { pngBytes } from "../../harness/fixtures";
import { callApi, type Session } from "../../harness/http-client";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let editor: Session;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  editor = await sessionAs(db, server, {
    email: "autosave-editor@example.com",
    username: "محررة الحفظ",
    role: "editor",
  });
});
afterAll(() => stopServerAndDb({ server, db }));

const paragraph = (text: string) =>
  JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });

function autosave(fields: Record<string, string | string[]>) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) body.append(name, one);
  return callApi(`${server.url}/api/news/autosave`, "POST", body, editor);
}

/** A draft with one image, as the form's first save would make it. */
async function draftWithImage(): Promise<{ id: string; image: string }> {
  const created = await callApi(
    `${server.url}/api/news`,
    "POST",
    articleForm({ title: "مسودة بصورة", content: "نص أول", category: "local", status: "draft" }, [
      { field: "images", name: "a.png", bytes: await pngBytes(), type: "image/png" },
    ]),
    editor,
  );
  expect(created.status).toBe(201);
  const article = await getArticle(db, created.json.id!, EDITORS);
  return { id: created.json.id!, image: article!.images[0]! };
}

describe("autosave stores every field it is sent (lib/article-form-fields.ts)", () => {
  it("each autosaved field of the form is in the draft after one autosave, and the submit's choices are left to the save", async () => {
    const { id, image } = await draftWithImage();
    const sent: Record<string, string | string[]> = {
      title: "عنوان محفوظ تلقائياً",
      standfirst: "مقدمة كتبت قبل الحفظ التلقائي",
      body: paragraph("نص المسودة بعد الحفظ التلقائي"),
      byline: "مراسل الشمال",
      category: "sports",
      topics: "طرابلس، الميناء",
      imageOrder: [image],
      imageAlt: ["وصف الصورة"],
      imageCaption: ["تعليق الصورة"],
      imageCredit: ["تصوير فلان"],
      imageUrl: "https://example.com/cover.jpg",
      videoUrl: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      slug: "عنوان-مختار",
      shareTitle: "عنوان المشاركة",
      shareDescription: "وصف المشاركة",
      noindex: "on",
    };
    /** What the draft shows of each autosaved field: `content` is the same text sent as plain text, alone (a form sends one of the two). */
    const stored: Record<string, (article: NewsArticle, topics: string[]) => unknown> = {
      title: (a) => a.title,
      standfirst: (a) => a.story.standfirst,
      body: (a) => a.content,
      content: (a) => a.content,
      byline: (a) => a.byline,
      category: (a) => a.category,
      topics: (_, topics) => topics.join("، "),
      imageOrder: (a) => a.images,
      imageAlt: (a) => [a.imageDetails[image]?.alt],
      imageCaption: (a) => [a.imageDetails[image]?.caption],
      imageCredit: (a) => [a.imageDetails[image]?.credit],
      imageUrl: (a) => a.imageUrl,
      videoUrl: (a) => a.video,
      slug: (a) => a.story.slug,
      shareTitle: (a) => a.story.shareTitle,
      shareDescription: (a) => a.story.shareDescription,
      noindex: (a) => (a.story.noindex ? "on" : ""),
    };
    // Every field the list says autosave keeps is sent here and checked below.
    expect(Object.keys(stored).sort()).toEqual([...AUTOSAVED_FIELDS].sort());

    const saved = await autosave({
      ...sent,
      id,
      baseVersion: String(await storedVersion(db, id)),
      status: "published",
      sendAlert: "on",
    });
    expect(saved.status).toBe(200);
    const article = (await getArticle(db, id, EDITORS))!;
    const topics = (await topicsOfArticle(db, id)).map((topic) => topic.name);
    for (const [name, value] of Object.entries(sent)) {
      const expected = name === "body" ? "نص المسودة بعد الحفظ التلقائي" : value;
      expect({ name, value: stored[name]!(article, topics) }).toEqual({ name, value: expected });
    }
    expect(article.status).toBe("draft");

    const plain = await autosave({
      id,
      title: "عنوان",
      content: "نص عادي بلا محرر",
      category: "local",
      baseVersion: String(saved.json.version),
    });
    expect(plain.status).toBe(200);
    expect(stored.content!((await getArticle(db, id, EDITORS))!, [])).toBe("نص عادي بلا محرر");
  });

  it("a new article's first autosave keeps its standfirst and share fields too", async () => {
    const first = await autosave({
      title: "خبر جديد",
      standfirst: "مقدمة الخبر الجديد",
      body: paragraph("نصه"),
      category: "local",
      shareTitle: "للمشاركة",
      submissionId: "autosave-fields-0001",
    });
    expect(first.status).toBe(200);
    expect((await getArticle(db, first.json.id!, EDITORS))!.story).toMatchObject({
      standfirst: "مقدمة الخبر الجديد",
      shareTitle: "للمشاركة",
    });
  });

  it("a field the article form does not have is refused by its name, and nothing is written", async () => {
    const { id } = await draftWithImage();
    const version = await storedVersion(db, id);
    const refused = await autosave({
      id,
      title: "عنوان",
      body: paragraph("نص"),
      category: "local",
      baseVersion: String(version),
      subtitle: "خطأ مطبعي",
    });
    expect(refused).toMatchObject({
      status: 400,
      json: { error: { code: "validation", fields: { subtitle: expect.any(String) } } },
    });
    expect(await storedVersion(db, id)).toBe(version);
  });
});
