import { readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LibraryEntry } from "~/lib/media-library";
import { messages } from "~/lib/messages";
import { mediaLibraryMessages, newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import { mediaNamesOf } from "~/server/media/media.server";
import type { TestServer } from "../../harness/test-server";
import { articleForm, putArticle, storedVersion, type UploadedFile } from "../../harness/articles";
import { exeBytes, pngBytes } from "../../harness/fixtures";
import { callApi, get, post, VISITOR, type Session } from "../../harness/http-client";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/** Pictures uploaded straight into the library, and a picture only earlier versions use deleted from it (docs/product.md#screens-and-routes). */
describe("the media library's uploads and the removal of pictures only earlier versions use", () => {
  let server: TestServer;
  let db: DB;
  let editor: Session;
  let author: Session;

  beforeAll(async () => {
    ({ server, db } = await startServerAndDb());
    editor = await sessionAs(db, server, { email: "desk@example.com", username: "مكتب الأخبار", role: "editor" });
    author = await sessionAs(db, server, { email: "writer@example.com", username: "كاتبة", role: "author" });
  });
  afterAll(() => stopServerAndDb({ server, db }));

  const pictures = async (count: number, name = "photo") =>
    Promise.all(
      Array.from({ length: count }, async (_, index): Promise<UploadedFile> => ({
        field: "images",
        name: `${name}-${index}.png`,
        bytes: await pngBytes(320 + index * 10, 240, "#2a9d8f"),
        type: "image/png",
      })),
    );
  const upload = (files: UploadedFile[], session: Session = editor) =>
    callApi(`${server.url}/api/media/library`, "POST", articleForm({}, files), session, { origin: server.url });
  const library = async (session: Session = editor) =>
    ((await (await get(`${server.url}/api/media/library`, session)).json()) as { images: LibraryEntry[] }).images;
  const storedNames = () => readdirSync(path.join(server.env.MEDIA_DIR, "news-images")).sort();
  const served = async (url: string) => (await get(`${server.url}${url}`)).status;

  it("takes several pictures at once through the API, each stored and processed as a story's upload, by whoever is in the newsroom", async () => {
    const { status, json } = await upload(await pictures(3), author);
    expect(status).toBe(201);
    const { urls } = json as { urls: string[] };
    expect(urls).toHaveLength(3);
    const images = await library();
    for (const url of urls) {
      expect(url).toMatch(/^\/media\/news-images\/[0-9a-f]{16}-photo-\d\.webp$/);
      expect(images.find((image) => image.url === url)).toMatchObject({ uploader: "كاتبة", height: 240, uses: [] });
      for (const name of mediaNamesOf(url)) expect(await served(`/media/${name}`)).toBe(200);
    }
  });

  it("takes them from the page's own form without JavaScript and says so in Arabic", async () => {
    const before = (await library()).length;
    const form = articleForm({}, await pictures(2, "form"));
    const response = await post(`${server.url}/dashboard/media`, form, editor);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain(mediaLibraryMessages.uploaded(2));
    expect((await library()).length).toBe(before + 2);
  });

  it("refuses what a story's upload refuses, in Arabic, and keeps nothing of a refused upload", async () => {
    const names = storedNames();
    const rows = (await library()).length;
    const notAnImage = await upload([
      ...(await pictures(1)),
      { field: "images", name: "virus.png", bytes: exeBytes(), type: "image/png" },
    ]);
    expect(notAnImage.status).toBe(400);
    expect(notAnImage.json.error?.fields?.images).toBe(newsroomMessages.imageInvalid);
    const tooMany = await upload(await pictures(11));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json.error?.fields?.images).toBe(mediaLibraryMessages.uploadTooMany);
    const none = await upload([]);
    expect(none.status).toBe(400);
    expect(none.json.error?.fields?.images).toBe(mediaLibraryMessages.uploadNone);
    const page = await post(
      `${server.url}/dashboard/media`,
      articleForm({}, [{ field: "images", name: "virus.png", bytes: exeBytes() }]),
      editor,
    );
    expect(page.status).toBe(400);
    expect(await page.text()).toContain(newsroomMessages.imageInvalid);
    expect((await upload(await pictures(1), VISITOR)).status).toBe(401);
    expect(storedNames()).toEqual(names);
    expect((await library()).length).toBe(rows);
  });

  it("lets an editor delete a picture only earlier versions use: its files are no longer served and those versions say it was removed", async () => {
    const created = await callApi(
      `${server.url}/api/news`,
      "POST",
      articleForm(
        { title: "صورة خاطئة في الخبر", content: "نص الخبر", category: "local", status: "published" },
        await pictures(2, "story"),
      ),
      editor,
      { origin: server.url },
    );
    expect(created.status).toBe(201);
    const id = created.json.id!;
    const { images } = await db.selectFrom("news").select("images").where("id", "=", id).executeTakeFirstOrThrow();
    const [cover, wrong] = JSON.parse(images) as [string, string];
    expect(
      (
        await putArticle(
          server.url,
          editor,
          id,
          articleForm({
            title: "صورة خاطئة في الخبر",
            content: "نص الخبر",
            category: "local",
            status: "published",
            removeImages: wrong,
          }),
          { origin: server.url },
        )
      ).status,
    ).toBe(200);
    const { id: revision } = await db
      .selectFrom("news_revisions")
      .select("id")
      .where("news_id", "=", id)
      .executeTakeFirstOrThrow();

    const entry = (await library()).find((image) => image.url === wrong)!;
    expect(entry.uses).toEqual([{ id, title: "صورة خاطئة في الخبر", as: "revision" }]);
    const page = await (await get(`${server.url}/dashboard/media`, editor)).text();
    expect(page).toContain(mediaLibraryMessages.onlyInRevisions);

    // A picture a story uses now still cannot be deleted; an author cannot delete either.
    const refused = await post(`${server.url}/dashboard/media`, { intent: "delete", url: cover }, editor);
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(mediaLibraryMessages.inUse);
    expect((await post(`${server.url}/dashboard/media`, { intent: "delete", url: wrong }, author)).status).toBe(403);

    const deleted = await post(`${server.url}/dashboard/media`, { intent: "delete", url: wrong }, editor);
    expect(deleted.status).toBe(200);
    expect(await deleted.text()).toContain(mediaLibraryMessages.deleted);
    for (const name of mediaNamesOf(wrong)) expect(await served(`/media/${name}`)).toBe(404);
    for (const name of mediaNamesOf(cover)) expect(await served(`/media/${name}`)).toBe(200);
    expect((await library()).map((image) => image.url)).not.toContain(wrong);

    const shown = await (await get(`${server.url}/edit-news/${id}/revisions/${revision}`, editor)).text();
    expect(shown).toContain(messages.removedImage);
    expect(shown).not.toContain(`src="${wrong.replace(/\.webp$/, "")}`);
    const compared = await (
      await get(`${server.url}/edit-news/${id}/compare?from=${revision}&to=current`, editor)
    ).text();
    expect(compared).toContain(messages.removedImage);

    // Restoring that version brings back its text and its other pictures, never the removed one.
    const restored = await post(
      `${server.url}/edit-news/${id}/revisions/${revision}`,
      { mode: "full", baseVersion: String(await storedVersion(db, id)) },
      editor,
    );
    expect(restored.status).toBe(302);
    const after = await db
      .selectFrom("news")
      .select(["images", "image_details"])
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(after.images)).toEqual([cover]);
    expect(after.image_details ?? "").not.toContain(wrong);
  });
});
