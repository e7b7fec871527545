import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newsroomMessages, revisionMessages } from "~/lib/newsroom-messages";
import { createTestArticle } from "../../harness/articles";
import type { DB } from "~/server/db/db.server";
import { pngBytes } from "../../harness/fixtures";
import { callApi, get, post, type Session } from "../../harness/http-client";
import { articleForm, putArticle, storedVersion } from "../../harness/articles";
import type { TestServer } from "../../harness/test-server";
import { sessionAs, startServerAndDb, stopServerAndDb } from "../support/server-and-db";

let server: TestServer;
let db: DB;
let admin: Session;
let editor: Session;
let author: Session;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  admin = await sessionAs(db, server, { email: "admin@example.com", username: "مدير الموقع", role: "admin" });
  editor = await sessionAs(db, server, { email: "editor@example.com", username: "المحررة", role: "editor" });
  author = await sessionAs(db, server, { email: "author@example.com", username: "الكاتب", role: "author" });
});
afterAll(() => stopServerAndDb({ server, db }));

const valid = {
  title: "افتتاح سوق الخضار الجديد",
  content: "نص أول عن السوق الجديد.",
  category: "local",
  status: "published",
};

const api = (method: "POST" | "PUT" | "DELETE", pathname: string, body?: FormData, session = admin) =>
  callApi(`${server.url}${pathname}`, method, body, session);

async function publish(fields: Partial<typeof valid> = {}, files: Parameters<typeof articleForm>[1] = []) {
  const { status, json } = await api("POST", "/api/news", articleForm({ ...valid, ...fields }, files));
  expect(status).toBe(201);
  return { id: json.id!, shortId: json.shortId! };
}

function autosave(fields: Record<string, string>, session = author) {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.set(name, value);
  return api("POST", "/api/news/autosave", body, session);
}

const revisionIds = async (id: string) =>
  (await db.selectFrom("news_revisions").select("id").where("news_id", "=", id).orderBy("id", "desc").execute()).map(
    (row) => Number(row.id),
  );

describe("revisions", () => {
  it("every save keeps the previous version; the edit page lists it with who and when; the revision page shows it; restoring is a new revision", async () => {
    const { id } = await publish({ title: "العنوان الأصلي", content: "النص الأصلي الصحيح." });
    expect(
      (await putArticle(server.url, admin, id, articleForm({ ...valid, title: "عنوان خاطئ", content: "نص فيه خطأ." })))
        .status,
    ).toBe(200);
    const [revision] = await revisionIds(id);
    const editPage = await (await get(`${server.url}/edit-news/${id}`, admin)).text();
    expect(editPage).toContain(newsroomMessages.revisionsTitle);
    expect(editPage).toContain("العنوان الأصلي");
    expect(editPage).toContain("مدير الموقع");
    expect(editPage).toContain(`/edit-news/${id}/revisions/${revision}`);

    const shown = await get(`${server.url}/edit-news/${id}/revisions/${revision}`, editor);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain("النص الأصلي الصحيح.");
    expect(html).toContain("noindex");

    const restored = await post(
      `${server.url}/edit-news/${id}/revisions/${revision}`,
      { mode: "full", baseVersion: String(await storedVersion(db, id)) },
      editor,
    );
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe(`/edit-news/${id}?restored=1`);
    const page = await (await get(`${server.url}/news/${id}`)).text();
    expect(page).toContain("النص الأصلي الصحيح.");
    expect(page).not.toContain("نص فيه خطأ.");
    expect(await revisionIds(id)).toHaveLength(2);
  });

  it("a revision of another article, an unknown one, or one of an article the reader may not edit is refused and restores nothing", async () => {
    const { id } = await publish();
    await putArticle(server.url, admin, id, articleForm({ ...valid, title: "تعديل" }));
    const other = await publish();
    const [revision] = await revisionIds(id);
    expect((await get(`${server.url}/edit-news/${other.id}/revisions/${revision}`, admin)).status).toBe(404);
    expect((await get(`${server.url}/edit-news/${id}/revisions/abc`, admin)).status).toBe(404);
    expect(
      (
        await post(
          `${server.url}/edit-news/${id}/revisions/${revision}`,
          { mode: "full", baseVersion: String(await storedVersion(db, id)) },
          author,
        )
      ).status,
    ).toBe(403);
    expect((await get(`${server.url}/edit-news/${id}/revisions/${revision}`)).status).toBe(302);
    expect(await revisionIds(id)).toHaveLength(1);
  });
});

describe("revisions compared and restored", () => {
  const storyRow = (id: string) => db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  it("compares two versions with words marked, previews a restore, refuses an unconfirmed media removal and restores the text alone", async () => {
    const { id } = await publish({ title: "عنوان قديم", content: "وصل الوفد إلى طرابلس صباحاً" });
    const put = await putArticle(
      server.url,
      admin,
      id,
      articleForm({ ...valid, title: "عنوان جديد", content: "وصل الوفد الرسمي إلى بيروت صباحاً" }, [
        { field: "images", name: "p.png", bytes: await pngBytes() },
      ]),
    );
    expect(put.status).toBe(200);
    const [revision] = await revisionIds(id);
    const [image] = JSON.parse((await storyRow(id)).images) as string[];
    expect(image).toBeTruthy();

    const compare = await get(`${server.url}/edit-news/${id}/compare?from=${revision}&to=current`, editor);
    expect(compare.status).toBe(200);
    const compared = await compare.text();
    expect(compared).toContain("<ins>الرسمي </ins>");
    expect(compared).toContain("<del>طرابلس </del>");
    expect(compared).toContain("<ins>بيروت </ins>");
    expect(compared).toContain(revisionMessages.imageAdded);
    expect(compared).toContain(image);
    const editPage = await (await get(`${server.url}/edit-news/${id}`, editor)).text();
    expect(editPage).toContain(revisionMessages.kindSave);
    expect(editPage).toContain(`/edit-news/${id}/compare?from=${revision}&amp;to=current`);

    const preview = await (await get(`${server.url}/edit-news/${id}/revisions/${revision}`, editor)).text();
    expect(preview).toContain(revisionMessages.restorePreviewTitle);
    expect(preview).toContain(revisionMessages.restoreWillRemove);
    expect(preview).toContain(`name="removal" value="${image}"`);

    const before = await storyRow(id);
    const revisionsBefore = await revisionIds(id);
    const baseVersion = String(before.version);
    const refusals: Record<string, string>[] = [
      { mode: "full" },
      { mode: "full", removal: image! },
      { mode: "full", confirmRemoval: "1" },
      { mode: "erase" },
      {},
    ];
    for (const fields of refusals) {
      const refused = await post(
        `${server.url}/edit-news/${id}/revisions/${revision}`,
        { ...fields, baseVersion },
        editor,
      );
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      const text = await refused.text();
      expect(
        text.includes(revisionMessages.restoreRemovalNotConfirmed) ||
          text.includes(revisionMessages.restoreModeInvalid),
      ).toBe(true);
    }
    expect(await storyRow(id)).toEqual(before);
    expect(await revisionIds(id)).toEqual(revisionsBefore);

    const restored = await post(
      `${server.url}/edit-news/${id}/revisions/${revision}`,
      { mode: "text", baseVersion },
      editor,
    );
    expect(restored.status).toBe(302);
    expect(restored.headers.get("location")).toBe(`/edit-news/${id}?restored=text`);
    const after = await storyRow(id);
    expect(after).toMatchObject({ title: "عنوان قديم", content: "وصل الوفد إلى طرابلس صباحاً", images: before.images });
    expect(await (await get(`${server.url}/news/${id}`)).text()).toContain(image);
  });

  it("refuses to compare versions that are not this story's, and names bad references not-found", async () => {
    const { id } = await publish();
    await putArticle(server.url, admin, id, articleForm({ ...valid, title: "تعديل" }));
    const other = await publish();
    const [revision] = await revisionIds(id);
    for (const query of [`from=${revision}&to=current`, "from=abc", "from=0&to=current", "from=current&to=99999999"]) {
      expect((await get(`${server.url}/edit-news/${other.id}/compare?${query}`, admin)).status, query).toBe(404);
    }
    expect((await get(`${server.url}/edit-news/${id}/compare`, admin)).status).toBe(200);
    expect((await get(`${server.url}/edit-news/${id}/compare?from=${revision}`, author)).status).toBe(403);
  });
});

describe("the calendar of scheduled stories", () => {
  it("lists each day's scheduled stories in Arabic, all for an editor, an author's own for an author", async () => {
    const authorId = (
      await db.selectFrom("user").select("id").where("email", "=", "author@example.com").executeTakeFirstOrThrow()
    ).id;
    const editorId = (
      await db.selectFrom("user").select("id").where("email", "=", "editor@example.com").executeTakeFirstOrThrow()
    ).id;
    await createTestArticle(db, {
      title: "خبر الكاتب المجدول",
      status: "scheduled",
      publishAt: "2030-03-10T07:00:00.000Z",
      authorId,
    });
    await createTestArticle(db, {
      title: "خبر المحررة المجدول",
      status: "scheduled",
      publishAt: "2030-03-31T22:30:00.000Z",
      authorId: editorId,
    });
    await createTestArticle(db, { title: "خبر آذار المنشور", status: "published", authorId: editorId });
    const editorView = await (await get(`${server.url}/dashboard/calendar?month=2030-03`, editor)).text();
    expect(editorView).toContain("خبر الكاتب المجدول");
    // 22:30 UTC on 31 March is 1 April in Beirut.
    expect(editorView).not.toContain("خبر المحررة المجدول");
    expect(editorView).not.toContain("خبر آذار المنشور");
    expect(editorView).toContain("آذار");
    expect(editorView).toContain('data-day="2030-03-10"');
    const april = await (await get(`${server.url}/dashboard/calendar?month=2030-04`, editor)).text();
    expect(april).toContain("خبر المحررة المجدول");
    expect(await (await get(`${server.url}/dashboard/calendar?month=2030-04`, author)).text()).not.toContain(
      "خبر المحررة المجدول",
    );
    const authorView = await (await get(`${server.url}/dashboard/calendar?month=2030-03`, author)).text();
    expect(authorView).toContain("خبر الكاتب المجدول");
    expect(await (await get(`${server.url}/dashboard/calendar?month=9999-99`, author)).status).toBe(200);
  });
});

describe("the trash", () => {
  it("deleting takes the article out of every public place at once, keeps it 30 days, and restoring brings it back", async () => {
    const { id, shortId } = await publish({ title: "خبر الزلزال التجريبي", category: "breaking" }, [
      { field: "images", name: "p.png", bytes: await pngBytes() },
    ]);
    const places = [
      "/",
      "/breaking",
      "/rss.xml",
      "/breaking/rss.xml",
      "/sitemap.xml",
      "/news-sitemap.xml",
      "/search?q=الزلزال",
      "/api/breaking",
    ];
    for (const place of places) expect(await (await get(`${server.url}${place}`)).text()).toContain(id);
    const image = (await db.selectFrom("news").select("images").where("id", "=", id).executeTakeFirstOrThrow()).images;

    const deleted = await post(`${server.url}/news/${id}/delete`, { redirectTo: "/dashboard" }, editor);
    expect([302, 403]).toContain(deleted.status);
    if (deleted.status === 403) expect((await api("DELETE", `/api/news/${id}`)).status).toBe(200);
    for (const place of places) expect(await (await get(`${server.url}${place}`)).text()).not.toContain(id);
    expect((await get(`${server.url}/news/${id}`)).status).toBe(404);
    expect((await get(`${server.url}/news/${id}`, admin)).status).toBe(404);
    expect((await get(`${server.url}/${shortId}`)).status).toBe(404);
    expect(await (await get(`${server.url}/dashboard`, admin)).text()).not.toContain("الزلزال");
    const imageUrl = JSON.parse(image)[0] as string;
    expect((await fetch(`${server.url}${imageUrl}`)).status).toBe(200);

    const trash = await get(`${server.url}/dashboard/trash`, editor);
    expect(trash.status).toBe(200);
    const trashHtml = await trash.text();
    expect(trashHtml).toContain("خبر الزلزال التجريبي");
    expect(trashHtml).toContain(newsroomMessages.restoreFromTrash);
    expect(trashHtml).not.toContain('value="delete"');
    expect(await (await get(`${server.url}/dashboard/trash`, admin)).text()).toContain('value="delete"');

    const restored = await post(`${server.url}/dashboard/trash`, { id, intent: "restore" }, editor);
    expect(restored.status).toBe(302);
    for (const place of places) expect(await (await get(`${server.url}${place}`)).text()).toContain(id);
    expect((await get(`${server.url}/${shortId}`)).headers.get("location")).toContain(`/news/${id}`);
  });

  it("only admins delete for good, only from the trash; editors, authors and visitors change nothing", async () => {
    const { id } = await publish({}, [{ field: "images", name: "p.png", bytes: await pngBytes() }]);
    const imageUrl = JSON.parse(
      (await db.selectFrom("news").select("images").where("id", "=", id).executeTakeFirstOrThrow()).images,
    )[0] as string;
    expect((await post(`${server.url}/dashboard/trash`, { id, intent: "delete" }, admin)).status).toBe(404);
    expect((await api("DELETE", `/api/news/${id}`)).status).toBe(200);
    expect((await post(`${server.url}/dashboard/trash`, { id, intent: "delete" }, editor)).status).toBe(403);
    expect((await post(`${server.url}/dashboard/trash`, { id, intent: "restore" }, author)).status).toBe(403);
    expect((await get(`${server.url}/dashboard/trash`, author)).status).toBe(403);
    expect((await post(`${server.url}/dashboard/trash`, { id, intent: "other" }, admin)).status).toBe(400);
    expect(await db.selectFrom("news").select("status").where("id", "=", id).execute()).toEqual([
      { status: "trashed" },
    ]);
    expect((await fetch(`${server.url}${imageUrl}`)).status).toBe(200);

    expect((await post(`${server.url}/dashboard/trash`, { id, intent: "delete" }, admin)).status).toBe(302);
    expect(await db.selectFrom("news").select("id").where("id", "=", id).execute()).toEqual([]);
    // Its image stays in the media library (decision 036) until an editor deletes it there.
    expect((await fetch(`${server.url}${imageUrl}`)).status).toBe(200);
    expect((await post(`${server.url}/dashboard/media`, { intent: "delete", url: imageUrl }, editor)).status).toBe(200);
    expect((await fetch(`${server.url}${imageUrl}`)).status).toBe(404);
    expect((await post(`${server.url}/dashboard/trash`, { id, intent: "restore" }, editor)).status).toBe(404);
  });
});

describe("autosave", () => {
  it("a new article's first autosave makes a draft, the next ones save into it, and none is public", async () => {
    const first = await autosave({
      title: "مسودة محفوظة تلقائياً",
      content: "النسخة الأولى",
      category: "local",
      submissionId: "autosave-test-0001",
    });
    expect(first.status).toBe(200);
    const again = await autosave({
      title: "مسودة محفوظة تلقائياً",
      content: "النسخة الأولى",
      category: "local",
      submissionId: "autosave-test-0001",
    });
    expect(again.json.id).toBe(first.json.id);
    expect(
      (
        await autosave({
          id: first.json.id!,
          title: "مسودة محفوظة تلقائياً",
          content: "النسخة الثانية",
          category: "sports",
          baseVersion: String(again.json.version),
        })
      ).status,
    ).toBe(200);
    const row = await db
      .selectFrom("news")
      .select(["status", "content", "category", "author_id"])
      .where("id", "=", first.json.id!)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: "draft", content: "النسخة الثانية", category: "sports" });
    expect((await get(`${server.url}/news/${first.json.id}`)).status).toBe(404);
  });

  it("never writes into a published article, someone else's draft, or with bad text", async () => {
    const { id } = await publish({ content: "النص المنشور" });
    const refused = await autosave(
      {
        id,
        title: "تغيير",
        content: "نص لم يُنشر",
        category: "local",
        baseVersion: String(await storedVersion(db, id)),
      },
      admin,
    );
    expect(refused.status).toBe(409);
    expect(refused.json.error?.message).toBe(newsroomMessages.autosaveDraftsOnly);
    const draft = await autosave(
      { title: "مسودة المحررة", content: "نص", category: "local", submissionId: "autosave-test-0002" },
      editor,
    );
    expect(
      (
        await autosave(
          {
            id: draft.json.id!,
            title: "سطو",
            content: "نص",
            category: "local",
            baseVersion: String(draft.json.version),
          },
          author,
        )
      ).status,
    ).toBe(403);
    const bad = await autosave(
      { id: draft.json.id!, title: "  ", content: "نص", category: "local", baseVersion: String(draft.json.version) },
      editor,
    );
    expect(bad.status).toBe(400);
    expect(bad.json.error?.code).toBe("validation");
    expect((await autosave({ title: "بلا معرف", content: "نص", category: "local" })).status).toBe(400);
    expect(
      (
        await autosave(
          { title: "زائر", content: "نص", category: "local", submissionId: "autosave-test-0003" },
          { cookie: "" },
        )
      ).status,
    ).toBe(401);
    expect(await db.selectFrom("news").select("content").where("id", "=", id).executeTakeFirstOrThrow()).toEqual({
      content: "النص المنشور",
    });
    expect(
      await db.selectFrom("news").select("title").where("id", "=", draft.json.id!).executeTakeFirstOrThrow(),
    ).toEqual({ title: "مسودة المحررة" });
  });
});

describe("preview", () => {
  it("renders the posted text as the article page would, never indexed or stored, and saves nothing", async () => {
    const { id } = await publish({ content: "النص المنشور للمعاينة" });
    const before = await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const response = await post(
      `${server.url}/dashboard/preview`,
      { id, title: "عنوان لم يُحفظ", content: "فقرة لم تُحفظ بعد.", category: "sports", videoUrl: "", imageUrl: "" },
      author,
    );
    expect(response.status).toBe(403);
    const shown = await post(
      `${server.url}/dashboard/preview`,
      { id, title: "عنوان لم يُحفظ", content: "فقرة لم تُحفظ بعد.", category: "sports", videoUrl: "", imageUrl: "" },
      editor,
    );
    expect(shown.status).toBe(200);
    expect(shown.headers.get("cache-control")).toContain("no-store");
    const html = await shown.text();
    expect(html).toContain("فقرة لم تُحفظ بعد.");
    expect(html).toContain(newsroomMessages.previewBanner);
    expect(html).toContain("noindex");
    expect(await db.selectFrom("news").selectAll().where("id", "=", id).executeTakeFirstOrThrow()).toEqual(before);
    expect(
      (await post(`${server.url}/dashboard/preview`, { title: "", content: "نص", category: "local" }, editor)).status,
    ).toBe(400);
    expect((await get(`${server.url}/dashboard/preview`, editor)).status).toBe(200);
  });
});
