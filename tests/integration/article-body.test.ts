import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { RichDocument } from "~/lib/rich-text/document";
import type { DB } from "~/server/db/db.server";
import { listReferencedMedia } from "~/server/news/article-media.server";
import { pngBytes } from "../../harness/fixtures";
import { callApi, get, post, type Session } from "../../harness/http-client";
import { articleForm, createTestArticle, putArticle, storedVersion } from "../../harness/articles";
import type { TestServer } from "../../harness/test-server";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let editor: Session;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  editor = await sessionAs(db, server, { email: "body@example.com", username: "محررة المتن", role: "editor" });
});
afterAll(() => stopServerAndDb({ server, db }));

const send = (method: "POST" | "PUT", pathname: string, body: FormData) =>
  callApi(`${server.url}${pathname}`, method, body, editor, { Accept: "application/json" });

async function uploadBodyImage(): Promise<string> {
  const body = new FormData();
  body.set("image", new Blob([new Uint8Array(await pngBytes(800, 450))], { type: "image/png" }), "in-text.png");
  const { status, json } = await send("POST", "/api/media/images", body);
  expect(status).toBe(201);
  return json.url!;
}

function richBody(image: string): RichDocument {
  return {
    type: "doc",
    content: [
      { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "عنوان داخل المتن" }] },
      {
        type: "paragraph",
        content: [
          { type: "text", text: "فقرة فيها " },
          {
            type: "text",
            text: "رابط",
            marks: [{ type: "link", attrs: { href: "https://example.org/ar" } }, { type: "bold" }],
          },
        ],
      },
      {
        type: "bulletList",
        content: [
          { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "البند الأول" }] }] },
          { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "البند الثاني" }] }] },
        ],
      },
      { type: "figure", attrs: { src: image, alt: "وصف الصورة", caption: "تعليق الصورة", credit: "وكالة محلية" } },
      { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
    ],
  };
}

const fields = (body: RichDocument | string, title = "خبر بمتن منسّق") => ({
  title,
  body: typeof body === "string" ? body : JSON.stringify(body),
  category: "miscellaneous",
  status: "published",
});

describe("the article body", () => {
  it("stores the editor's document, keeps its plain text in content, and renders it through the allow-list", async () => {
    const image = await uploadBodyImage();
    expect(image).toMatch(/^\/media\/news-images\/[0-9a-f]{16}-in-text\.webp$/);
    const { status, json } = await send("POST", "/api/news", articleForm(fields(richBody(image))));
    expect(status).toBe(201);
    const row = await db
      .selectFrom("news")
      .select(["content", "body"])
      .where("id", "=", json.id!)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.body!)).toEqual(richBody(image));
    expect(row.content).toBe("عنوان داخل المتن\nفقرة فيها رابط\nالبند الأول\nالبند الثاني\nتعليق الصورة");
    expect(await listReferencedMedia(db)).toContain(image);

    const html = await (await get(`${server.url}/news/${json.id}`)).text();
    expect(html).toContain("<h2>عنوان داخل المتن</h2>");
    expect(html).toContain(
      '<strong><a href="https://example.org/ar" rel="noopener noreferrer nofollow ugc">رابط</a></strong>',
    );
    expect(html).toContain("<li><p>البند الأول</p></li>");
    expect(html).toContain("<figcaption>تعليق الصورة");
    expect(html).toContain('alt="وصف الصورة"');
    expect(html).toContain('data-embed="youtube"');
    // A third-party frame is never in the page: the embed is a card with a link.
    expect(html).not.toContain("<iframe");
  });

  it("opens an article written before the editor as paragraphs, and shows them so", async () => {
    const { id } = await createTestArticle(db, {
      title: "خبر قديم",
      content: "السطر الأول\n\nالسطر الثاني",
      category: "miscellaneous",
    });
    const html = await (await get(`${server.url}/news/${id}`)).text();
    expect(html).toContain("<p>السطر الأول</p><p>السطر الثاني</p>");
    const item = await fetch(`${server.url}/api/news/${id}`, { headers: { cookie: editor.cookie } });
    const article = (await item.json()) as { body: RichDocument };
    expect(article.body.content).toHaveLength(2);
  });

  it("refuses a document the allow-list refuses with a 400 and an Arabic message, storing nothing and changing nothing", async () => {
    const { id } = await createTestArticle(db, {
      title: "خبر لا يتغير",
      content: "نص محفوظ",
      category: "miscellaneous",
    });
    const before = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("news")
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const total = await count();
    const hostile = [
      "{not json",
      JSON.stringify({ type: "doc", content: [{ type: "html", content: "<script>alert(1)</script>" }] }),
      JSON.stringify({
        type: "doc",
        content: [
          {
            type: "paragraph",
            content: [{ type: "text", text: "x", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] }],
          },
        ],
      }),
      JSON.stringify({
        type: "doc",
        content: [{ type: "figure", attrs: { src: "https://evil.example/x.png", alt: "", caption: "", credit: "" } }],
      }),
      ...["/\\evil.example", "/.//evil.example", "/\t/evil.example", "/%2e%2e//evil.example"].map((href) =>
        JSON.stringify({
          type: "doc",
          content: [
            { type: "paragraph", content: [{ type: "text", text: "x", marks: [{ type: "link", attrs: { href } }] }] },
          ],
        }),
      ),
    ];
    for (const body of hostile) {
      for (const [method, path] of [
        ["POST", "/api/news"],
        ["PUT", `/api/news/${id}`],
      ] as const) {
        const { status, json } = await send(method, path, articleForm(fields(body)));
        expect(status).toBe(400);
        expect(json.error?.fields?.body).toBe(messages.richTextInvalid);
      }
    }
    expect(await count()).toBe(total);
    expect(await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow()).toEqual(before);
  });

  it("keeps only the attributes the allow-list names: event handlers, styles and classes are dropped before storing", async () => {
    const body = {
      type: "doc",
      onload: "alert(1)",
      content: [
        {
          type: "paragraph",
          attrs: { style: "color:red", class: "MsoNormal", onclick: "alert(1)" },
          content: [
            {
              type: "text",
              text: "نص",
              marks: [
                {
                  type: "link",
                  attrs: { href: "https://example.org", onmouseover: "alert(1)", style: "x", target: "_top" },
                },
              ],
            },
          ],
        },
      ],
    };
    const { status, json } = await send("POST", "/api/news", articleForm(fields(JSON.stringify(body), "خبر بلا سمات")));
    expect(status).toBe(201);
    const row = await db.selectFrom("news").select("body").where("id", "=", json.id!).executeTakeFirstOrThrow();
    expect(JSON.parse(row.body!)).toEqual({
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [{ type: "text", text: "نص", marks: [{ type: "link", attrs: { href: "https://example.org" } }] }],
        },
      ],
    });
    const html = await (await get(`${server.url}/news/${json.id}`)).text();
    expect(html).not.toMatch(/onclick|onmouseover|MsoNormal|color:red/);
  });

  it("refuses an empty document as an empty text", async () => {
    const { status, json } = await send(
      "POST",
      "/api/news",
      articleForm(fields({ type: "doc", content: [{ type: "paragraph" }] })),
    );
    expect(status).toBe(400);
    expect(json.error?.fields?.content).toBe(newsroomMessages.contentRequired);
  });

  it("keeps the body in revisions, and a restore brings it back", async () => {
    const image = await uploadBodyImage();
    const { json } = await send("POST", "/api/news", articleForm(fields(richBody(image), "خبر تتغير نسخه")));
    const plain = {
      type: "doc",
      content: [{ type: "paragraph", content: [{ type: "text", text: "نص جديد بلا صورة" }] }],
    } satisfies RichDocument;
    expect(
      (
        await putArticle(server.url, editor, json.id!, articleForm(fields(plain, "خبر تتغير نسخه")), {
          Accept: "application/json",
        })
      ).status,
    ).toBe(200);
    // The image left the body, but the revision still names it: it stays stored.
    expect(await listReferencedMedia(db)).toContain(image);
    const revision = await db
      .selectFrom("news_revisions")
      .select(["id", "body"])
      .where("news_id", "=", json.id!)
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.parse(revision.body!)).toEqual(richBody(image));
    const restored = await post(
      `${server.url}/edit-news/${json.id}/revisions/${revision.id}`,
      { mode: "full", baseVersion: String(await storedVersion(db, json.id!)) },
      editor,
    );
    expect(restored.status).toBeLessThan(400);
    const row = await db.selectFrom("news").select("body").where("id", "=", json.id!).executeTakeFirstOrThrow();
    expect(JSON.parse(row.body!)).toEqual(richBody(image));
  });

  it("autosaves and previews the body", async () => {
    const autosave = new FormData();
    autosave.set("title", "مسودة بمتن");
    autosave.set(
      "body",
      JSON.stringify({
        type: "doc",
        content: [{ type: "heading", attrs: { level: 3 }, content: [{ type: "text", text: "عنوان فرعي" }] }],
      }),
    );
    autosave.set("category", "miscellaneous");
    autosave.set("submissionId", "body-autosave-0001");
    const saved = await send("POST", "/api/news/autosave", autosave);
    expect(saved.status).toBe(200);
    const row = await db
      .selectFrom("news")
      .select(["status", "content", "body"])
      .where("id", "=", saved.json.id!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "draft", content: "عنوان فرعي" });

    autosave.set("id", saved.json.id!);
    autosave.set("baseVersion", String(saved.json.version));
    autosave.set("body", "<p onclick=alert(1)>x</p>");
    const refused = await send("POST", "/api/news/autosave", autosave);
    expect(refused.status).toBe(400);
    expect(
      (await db.selectFrom("news").select("body").where("id", "=", saved.json.id!).executeTakeFirstOrThrow()).body,
    ).toBe(row.body);

    const preview = new FormData();
    preview.set("title", "معاينة");
    preview.set(
      "body",
      JSON.stringify({
        type: "doc",
        content: [
          {
            type: "blockquote",
            content: [{ type: "paragraph", content: [{ type: "text", text: "اقتباس للمعاينة" }] }],
          },
        ],
      }),
    );
    preview.set("category", "miscellaneous");
    const page = await fetch(`${server.url}/dashboard/preview`, {
      method: "POST",
      body: preview,
      headers: { cookie: editor.cookie, origin: server.url },
    });
    expect(await page.text()).toContain("<blockquote><p>اقتباس للمعاينة</p></blockquote>");
  });

  it("answers the editor's image upload only for the newsroom, and only with an image", async () => {
    const body = new FormData();
    body.set("image", new Blob([new Uint8Array(await pngBytes())], { type: "image/png" }), "x.png");
    const anonymous = await fetch(`${server.url}/api/media/images`, {
      method: "POST",
      body,
      headers: { Accept: "application/json" },
    });
    expect(anonymous.status).toBe(401);
    const notImage = new FormData();
    notImage.set("image", new Blob(["MZ not an image"], { type: "image/png" }), "x.png");
    const refused = await send("POST", "/api/media/images", notImage);
    expect(refused.status).toBe(400);
    expect(refused.json.error?.message).toBeTruthy();
  });
});
