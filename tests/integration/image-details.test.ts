import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { imageDetailMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { pngBytes } from "../../harness/fixtures";
import { callApi, get, post, type Session } from "../../harness/http-client";
import { articleForm, basedOn, putArticle, storedVersion, type UploadedFile } from "../../harness/articles";
import type { TestServer } from "../../harness/test-server";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

const NOT_IN_LIBRARY = "/media/news-images/0123456789abcdef-not-in-library.webp";

let server: TestServer;
let db: DB;
let admin: Session;
let author: Session;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  admin = await sessionAs(db, server, { email: "admin@example.com", username: "مدير الموقع", role: "admin" });
  author = await sessionAs(db, server, { email: "author@example.com", username: "الكاتبة", role: "author" });
});
afterAll(() => stopServerAndDb({ server, db }));

const valid = {
  title: "معرض الكتاب في المدينة",
  content: "نص عن معرض الكتاب.",
  category: "international",
  status: "published",
};

const api = (method: "POST" | "PUT", pathname: string, body: FormData, session = admin) =>
  callApi(`${server.url}${pathname}`, method, body, session);

const picture = async (name: string, color: string): Promise<UploadedFile> => ({
  field: "images",
  name,
  bytes: await pngBytes(640, 360, color),
});

/** A published article with two uploaded images; its id and the images' URLs in their order. */
async function publishWithTwoImages(fields: Record<string, string> = {}) {
  const { status, json } = await api(
    "POST",
    "/api/news",
    articleForm({ ...valid, ...fields }, [await picture("a.png", "#aa0000"), await picture("b.png", "#0000aa")]),
  );
  expect(status).toBe(201);
  const id = json.id!;
  return { id, images: (await row(id)).images };
}

async function row(id: string) {
  const found = await db
    .selectFrom("news")
    .select(["images", "image_details", "updated_at", "title"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return {
    ...found,
    images: JSON.parse(found.images) as string[],
    details: found.image_details
      ? (JSON.parse(found.image_details) as Record<string, { alt: string; caption: string; credit: string }>)
      : null,
  };
}

/** The edit form's fields for images in `order`, each with its details. */
function imageFields(
  order: string[],
  details: Record<string, Partial<{ alt: string; caption: string; credit: string }>> = {},
  fields: Record<string, string> = {},
) {
  const form = articleForm({ ...valid, ...fields });
  for (const url of order) {
    form.append("imageOrder", url);
    form.append("imageAlt", details[url]?.alt ?? "");
    form.append("imageCaption", details[url]?.caption ?? "");
    form.append("imageCredit", details[url]?.credit ?? "");
  }
  return form;
}

async function storedImageFiles(): Promise<number> {
  return (await readdir(path.join(server.env.MEDIA_DIR, "news-images"), { recursive: true })).length;
}

describe("an article's images: order, cover and details", () => {
  it("an edit makes the second image the cover with its alt, caption and credit; the page, cards and share tags follow", async () => {
    const { id, images } = await publishWithTwoImages();
    const [first, second] = images as [string, string];
    const form = imageFields([second, first], {
      [second]: { alt: "  زوار  المعرض أمام   الجناح ", caption: "افتتاح المعرض صباح السبت", credit: "سارة علي" },
    });
    expect((await putArticle(server.url, admin, id, form)).status).toBe(200);

    const stored = await row(id);
    expect(stored.images).toEqual([second, first]);
    expect(stored.details).toEqual({
      [second]: { alt: "زوار المعرض أمام الجناح", caption: "افتتاح المعرض صباح السبت", credit: "سارة علي" },
    });

    const page = await (await get(`${server.url}/news/${id}`)).text();
    const gallery = page.slice(page.indexOf('data-testid="article-images"'));
    expect(gallery.indexOf(second.replace(/\.webp$/, ""))).toBeLessThan(gallery.indexOf(first.replace(/\.webp$/, "")));
    expect(gallery).toMatch(/<figure><img[^>]*alt="زوار المعرض أمام الجناح"/);
    expect(gallery.replaceAll("<!-- -->", "")).toContain(
      `<figcaption>افتتاح المعرض صباح السبت<span class="credit">${messages.imageCredit} سارة علي</span></figcaption>`,
    );
    // The other image keeps today's alt and has no caption.
    expect(gallery).toContain(`alt="${messages.imageOf}: ${valid.title} (2)"`);
    expect(page).toMatch(
      new RegExp(
        `<meta property="og:image" content="[^"]*${second
          .split("/")
          .pop()!
          .replace(/\.webp$/, "")}`,
      ),
    );

    const home = await (await get(`${server.url}/international`)).text();
    const card = home.slice(home.indexOf(`/news/${id}`) - 2000, home.indexOf(`/news/${id}`) + 2000);
    expect(card).toContain(second.replace(/\.webp$/, ""));
    expect(card).not.toContain(first.replace(/\.webp$/, ""));
  });

  it("an edit without an order (older clients, the JSON API) keeps the order and details; a removed image loses its details; new uploads follow", async () => {
    const { id, images } = await publishWithTwoImages();
    const [first, second] = images as [string, string];
    await putArticle(
      server.url,
      admin,
      id,
      imageFields([second, first], { [first]: { caption: "تعليق الأولى" }, [second]: { credit: "وكالة" } }),
    );
    expect((await putArticle(server.url, admin, id, articleForm({ ...valid, title: "عنوان جديد" }))).status).toBe(200);
    expect((await row(id)).images).toEqual([second, first]);
    expect((await row(id)).details).toEqual({
      [first]: { alt: "", caption: "تعليق الأولى", credit: "" },
      [second]: { alt: "", caption: "", credit: "وكالة" },
    });

    const removing = articleForm({ ...valid }, [await picture("c.png", "#00aa00")]);
    removing.append("removeImages", second);
    expect((await putArticle(server.url, admin, id, removing)).status).toBe(200);
    const after = await row(id);
    expect(after.images).toHaveLength(2);
    expect(after.images[0]).toBe(first);
    expect(after.details).toEqual({ [first]: { alt: "", caption: "تعليق الأولى", credit: "" } });
  });

  it("refuses an image the article does not have, details too long or not matching the order, with 400 and an Arabic message, storing nothing", async () => {
    const { id, images } = await publishWithTwoImages();
    const [first, second] = images as [string, string];
    await putArticle(server.url, admin, id, imageFields([first, second], { [first]: { caption: "التعليق الأصلي" } }));
    const before = await row(id);
    const filesBefore = await storedImageFiles();
    await publishWithTwoImages();
    const filesWithOther = await storedImageFiles();
    expect(filesWithOther).toBeGreaterThan(filesBefore);

    const refusals: [FormData, string][] = [
      [imageFields(["https://evil.example/photo.png", first]), imageDetailMessages.notOfArticle],
      // Another story's image may be taken from the media library (decision 036); a URL the library does not hold may not.
      [imageFields([NOT_IN_LIBRARY, first]), imageDetailMessages.notOfArticle],
      [imageFields(["/media/news-images/../../auth-secret"]), imageDetailMessages.notOfArticle],
      [imageFields([first, second], { [first]: { caption: "ت".repeat(301) } }), imageDetailMessages.captionTooLong],
      [imageFields([first, second], { [second]: { alt: "و".repeat(301) } }), imageDetailMessages.altTooLong],
      [imageFields([first, second], { [second]: { credit: "م".repeat(301) } }), imageDetailMessages.creditTooLong],
      [imageFields([first, first]), imageDetailMessages.mismatch],
    ];
    const short = imageFields([first, second]);
    short.delete("imageCredit");
    short.append("imageCredit", "واحد فقط");
    refusals.push([short, imageDetailMessages.mismatch]);
    for (const [form, message] of refusals) {
      form.set("title", "عنوان لا يُحفظ");
      form.append("images", new Blob([new Uint8Array(await pngBytes())], { type: "image/png" }), "new.png");
      const { status, json } = await putArticle(server.url, admin, id, form);
      expect(status).toBe(400);
      expect(json.error?.fields?.imageDetails).toBe(message);
    }
    expect(await row(id)).toEqual(before);
    expect(await storedImageFiles()).toBe(filesWithOther);

    // A new article has no images yet: it cannot order or describe any but the library's.
    const created = await api("POST", "/api/news", imageFields([NOT_IN_LIBRARY]));
    expect(created.status).toBe(400);
    expect(created.json.error?.fields?.imageDetails).toBe(imageDetailMessages.notOfArticle);

    // The edit page's form answers the same.
    const page = await post(
      `${server.url}/edit-news/${id}`,
      basedOn(await storedVersion(db, id), imageFields(["https://evil.example/x.png"])),
      admin,
    );
    expect(page.status).toBe(400);
    expect(await row(id)).toEqual(before);
  });

  it("a revision keeps the details and restoring it brings them back; autosave keeps them; preview shows the form's order and details", async () => {
    const { id, images } = await publishWithTwoImages({ status: "draft" });
    const [first, second] = images as [string, string];
    const draft = { status: "draft" };
    expect(
      (
        await putArticle(
          server.url,
          admin,
          id,
          imageFields([second, first], { [second]: { caption: "التعليق الأول", credit: "المصوّر الأول" } }, draft),
        )
      ).status,
    ).toBe(200);
    expect(
      (
        await putArticle(
          server.url,
          admin,
          id,
          imageFields([first, second], { [first]: { caption: "تعليق لاحق" } }, draft),
        )
      ).status,
    ).toBe(200);
    const revisions = await db
      .selectFrom("news_revisions")
      .select(["id", "image_details"])
      .where("news_id", "=", id)
      .orderBy("id", "desc")
      .execute();
    const revision = Number(revisions[0]!.id);
    const revisionPage = await (await get(`${server.url}/edit-news/${id}/revisions/${revision}`, admin)).text();
    expect(revisionPage).toContain("التعليق الأول");

    expect(
      (
        await post(
          `${server.url}/edit-news/${id}/revisions/${revision}`,
          { mode: "full", baseVersion: String(await storedVersion(db, id)) },
          admin,
        )
      ).status,
    ).toBe(302);
    const restored = await row(id);
    expect(restored.images).toEqual([second, first]);
    expect(restored.details).toEqual({ [second]: { alt: "", caption: "التعليق الأول", credit: "المصوّر الأول" } });

    const autosave = new FormData();
    for (const [name, value] of Object.entries({
      id,
      title: "عنوان محفوظ تلقائياً",
      content: "نص محفوظ تلقائياً",
      category: "local",
      baseVersion: String(await storedVersion(db, id)),
    }))
      autosave.set(name, value);
    expect((await api("POST", "/api/news/autosave", autosave)).status).toBe(200);
    expect((await row(id)).details).toEqual(restored.details);
    expect((await row(id)).images).toEqual(restored.images);

    const preview = imageFields([first, second], { [first]: { caption: "تعليق في المعاينة", alt: "وصف في المعاينة" } });
    preview.set("id", id);
    const previewPage = await post(`${server.url}/dashboard/preview`, preview, admin);
    expect(previewPage.status).toBe(200);
    const previewHtml = await previewPage.text();
    expect(previewHtml).toContain("<figcaption>تعليق في المعاينة");
    expect(previewHtml).toContain('alt="وصف في المعاينة"');
    expect((await row(id)).details).toEqual(restored.details);

    const outside = imageFields(["https://evil.example/x.png"]);
    outside.set("id", id);
    expect((await post(`${server.url}/dashboard/preview`, outside, admin)).status).toBe(400);
  });

  it("an author may not reorder or describe an article that is not theirs", async () => {
    const { id, images } = await publishWithTwoImages();
    const before = await row(id);
    const { status } = await putArticle(
      server.url,
      author,
      id,
      basedOn(await storedVersion(db, id), imageFields([...images].reverse(), { [images[1]!]: { caption: "ليس لي" } })),
    );
    expect(status).toBe(403);
    expect(await row(id)).toEqual(before);
  });
});
