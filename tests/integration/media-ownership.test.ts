import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
import type { LibraryEntry } from "~/lib/media-library";
import type { DB } from "~/server/db/db.server";
import type { TestServer } from "../../harness/test-server";
import { articleForm, canonicalPath, putArticle } from "../../harness/articles";
import { pngBytes } from "../../harness/fixtures";
import { callApi, get, type Session } from "../../harness/http-client";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/** What belongs to one story and what one person may see in the media library: posters and the uses of an image. */
describe("media that belongs to a story", () => {
  let server: TestServer;
  let db: DB;
  let editor: Session;
  let author: Session;
  let otherAuthor: Session;

  beforeAll(async () => {
    ({ server, db } = await startServerAndDb());
    editor = await sessionAs(db, server, { email: "desk@example.com", username: "مكتب الأخبار", role: "editor" });
    author = await sessionAs(db, server, { email: "writer@example.com", username: "كاتبة", role: "author" });
    otherAuthor = await sessionAs(db, server, { email: "other@example.com", username: "كاتب آخر", role: "author" });
  });
  afterAll(() => stopServerAndDb({ server, db }));

  const story = async (session: Session, fields: Record<string, string>) => {
    const { status, json } = await callApi(
      `${server.url}/api/news`,
      "POST",
      articleForm({ content: "نص الخبر", category: "local", status: "published", ...fields }),
      session,
      { origin: server.url },
    );
    expect(status, JSON.stringify(json)).toBe(201);
    return json.id!;
  };
  const setPoster = async (session: Session, articleId: string, colour: string) => {
    const picture = await sharp({ create: { width: 640, height: 360, channels: 3, background: colour } })
      .png()
      .toBuffer();
    const form = articleForm({ articleId }, [
      { field: "poster", name: "poster.png", bytes: picture, type: "image/png" },
    ]);
    return callApi(`${server.url}/api/media/posters`, "POST", form, session, { origin: server.url });
  };
  const variant = (url: string) => url.replace(/\.webp$/, "");

  it("keeps a poster on its story: an author's draft with the same YouTube link never changes the published story's poster", async () => {
    const video = "https://youtu.be/dQw4w9WgXcQ";
    const published = await story(editor, { title: "جولة في سوق الخضار", videoUrl: video });
    const saved = await setPoster(editor, published, "#e9c46a");
    expect(saved.status).toBe(201);
    const editorsPoster = saved.json.url!;
    const readerPage = async (id: string) => (await get(`${server.url}${await canonicalPath(db, id)}`)).text();
    expect(await readerPage(published)).toContain(variant(editorsPoster));

    // The author may not touch the published story, and may set a poster on their own draft with the same link.
    expect((await setPoster(author, published, "#e76f51")).status).toBe(403);
    const draft = await story(author, { title: "مسودة بالفيديو نفسه", videoUrl: video, status: "draft" });
    const theirs = await setPoster(author, draft, "#e76f51");
    expect(theirs.status).toBe(201);
    const authorsPoster = theirs.json.url!;

    const page = await readerPage(published);
    expect(page).toContain(variant(editorsPoster));
    expect(page).not.toContain(variant(authorsPoster));
    expect(await (await get(`${server.url}/edit-news/${draft}`, author)).text()).toContain(variant(authorsPoster));
    // A third story with the link has no poster of its own, so none.
    const third = await story(editor, { title: "خبر ثالث بالرابط نفسه", videoUrl: video });
    expect(await readerPage(third)).not.toContain(variant(editorsPoster));
    expect(await db.selectFrom("video_posters").select(["news_id", "poster_url"]).orderBy("set_at").execute()).toEqual([
      { news_id: published, poster_url: editorsPoster },
      { news_id: draft, poster_url: authorsPoster },
    ]);
  });

  it("shows an author an image's uses only in stories they may read (their own, and published ones); an editor sees all", async () => {
    const upload = await callApi(
      `${server.url}/api/media/images`,
      "POST",
      articleForm({}, [
        { field: "image", name: "harbour.png", bytes: await pngBytes(640, 360, "#264653"), type: "image/png" },
      ]),
      editor,
      { origin: server.url },
    );
    expect(upload.status).toBe(201);
    const image = upload.json.url!;
    const taking = { imageOrder: image, imageAlt: "", imageCaption: "", imageCredit: "" };
    const othersDraft = await story(otherAuthor, { title: "مسودة سرية لكاتب آخر", status: "draft", ...taking });
    const editorsDraft = await story(editor, { title: "مسودة المحرر عن المرفأ", status: "draft", ...taking });
    const ownDraft = await story(author, { title: "مسودتي عن المرفأ", status: "draft", ...taking });
    const published = await story(editor, { title: "خبر منشور عن المرفأ", ...taking });
    // Another author's draft drops it: only its kept earlier version uses it now.
    const reviewed = await story(otherAuthor, { title: "مسودة أخرى حذفت الصورة", status: "draft", ...taking });
    expect(
      (
        await putArticle(
          server.url,
          otherAuthor,
          reviewed,
          articleForm({
            title: "مسودة أخرى حذفت الصورة",
            content: "نص",
            category: "local",
            status: "draft",
            removeImages: image,
          }),
          { origin: server.url },
        )
      ).status,
    ).toBe(200);

    const usesSeenBy = async (session: Session) => {
      const { images } = (await (await get(`${server.url}/api/media/library`, session)).json()) as {
        images: LibraryEntry[];
      };
      return images
        .find((entry) => entry.url === image)!
        .uses.map((use) => use.id)
        .sort();
    };
    expect(await usesSeenBy(author)).toEqual([ownDraft, published].sort());
    expect(await usesSeenBy(editor)).toEqual([othersDraft, editorsDraft, ownDraft, published, reviewed].sort());
    const page = await (await get(`${server.url}/dashboard/media`, author)).text();
    expect(page).toContain("مسودتي عن المرفأ");
    expect(page).toContain("خبر منشور عن المرفأ");
    for (const hidden of ["مسودة سرية لكاتب آخر", "مسودة المحرر عن المرفأ", "مسودة أخرى حذفت الصورة"])
      expect(page).not.toContain(hidden);
  });
});
