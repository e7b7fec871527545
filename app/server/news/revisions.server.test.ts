import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { pngBytes } from "../../../harness/fixtures";
import { createTempDatabase } from "../../../harness/temp-db";
import { articleChanges as edit, createTestArticle, storedVersion } from "../../../harness/articles";
import type { DB } from "~/server/db/db.server";
import { localStorage } from "~/server/media/local-storage.server";
import { storeImage } from "~/server/media/media.server";
import { readEventsAfter } from "~/server/outbox/outbox.server";
import { EDITORS } from "~/lib/audience";
import { getArticle } from "./articles-read.server";
import { updateArticle } from "./articles-write.server";
import { listReferencedMedia } from "./article-media.server";
import { restoreRevision } from "./restore-revision.server";
import { getRevision, listRevisions } from "./revisions.server";

let db: DB;
let cleanup: () => Promise<void>;
let mediaDir: string;
beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
  mediaDir = mkdtempSync(path.join(tmpdir(), "akhbar-revisions-"));
});
afterEach(async () => {
  await cleanup();
  rmSync(mediaDir, { recursive: true, force: true });
});

describe("revisions", () => {
  it("keeps the previous version at every save, newest first, with who saved", async () => {
    const { id } = await createTestArticle(db, { title: "الأول", content: "النص الأول" });
    await updateArticle(db, id, edit({ title: "الثاني", content: "النص الثاني" }), { by: "editor-1", kind: "save" });
    await updateArticle(db, id, edit({ title: "الثالث", content: "النص الثالث", category: "sports" }), {
      by: "editor-2",
      kind: "save",
    });
    const revisions = await listRevisions(db, id);
    expect(revisions.map((r) => r.title)).toEqual(["الثاني", "الأول"]);
    const first = await getRevision(db, id, revisions[1]!.id);
    expect(first).toMatchObject({ title: "الأول", content: "النص الأول", category: "local" });
    expect(await getRevision(db, "another-article", revisions[1]!.id)).toBeNull();
  });

  it("restores a revision as a new save: the replaced text becomes a revision, the outbox hears of it, the status stays", async () => {
    const { id } = await createTestArticle(db, { title: "الأصل", content: "النص الأصلي" });
    await updateArticle(db, id, edit({ title: "خطأ", content: "نص خاطئ" }), { by: "editor-1", kind: "save" });
    const [original] = await listRevisions(db, id);
    const eventsBefore = (await readEventsAfter(db, 0, 100)).length;
    await restoreRevision(db, id, original!.id, "editor-2", {
      mode: "full",
      confirmedRemovals: [],
      baseVersion: await storedVersion(db, id),
    });
    const article = await getArticle(db, id);
    expect(article).toMatchObject({ title: "الأصل", content: "النص الأصلي", status: "published" });
    expect((await listRevisions(db, id)).map((r) => r.title)).toEqual(["خطأ", "الأصل"]);
    const events = await readEventsAfter(db, 0, 100);
    expect(events).toHaveLength(eventsBefore + 1);
    expect(events.at(-1)).toMatchObject({ kind: "article-edited", articleId: id });
    await expect(
      restoreRevision(db, id, 999_999, "editor-2", {
        mode: "text",
        confirmedRemovals: [],
        baseVersion: await storedVersion(db, id),
      }),
    ).rejects.toMatchObject({ code: "not-found" });
  });

  it("keeps one revision for consecutive autosaves by one person", async () => {
    const { id } = await createTestArticle(db, { title: "مسودة", status: "draft" });
    for (const title of ["م1", "م2", "م3"])
      await updateArticle(db, id, edit({ title, status: "draft" }), { by: "author-1", kind: "autosave" });
    await updateArticle(db, id, edit({ title: "نهائي", status: "draft" }), { by: "author-1", kind: "save" });
    expect((await listRevisions(db, id)).map((r) => r.title)).toEqual(["م3", "مسودة"]);
  });

  it("never hands back a revision's media as unused: it stays referenced until the article is deleted for good", async () => {
    const storage = localStorage(mediaDir);
    const image = await storeImage(storage, await pngBytes(), "photo.png");
    const { id } = await createTestArticle(db, { images: [image] });
    const result = await updateArticle(db, id, edit({ images: [] }), { by: "editor-1", kind: "save" });
    expect(result?.unusedMedia).toEqual([]);
    expect(await listReferencedMedia(db)).toContain(image);
    expect(existsSync(path.join(mediaDir, image.replace("/media/", "")))).toBe(true);
    expect((await getArticle(db, id, EDITORS))?.images).toEqual([]);
  });
});
