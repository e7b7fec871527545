import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { articleChanges as edit, createTestArticle } from "../../../harness/articles";
import type { DB } from "~/server/db/db.server";
import { readEventsAfter } from "~/server/outbox/outbox.server";
import { EDITORS } from "~/lib/audience";
import { AppError } from "~/server/platform/app-error.server";
import { getArticle } from "./articles-read.server";
import { updateArticle } from "./articles-write.server";
import { articleSchema } from "~/lib/article-schema";
import { readForm } from "~/server/http/read-form.server";
import { AUTOSAVE_FORM_READING, AUTOSAVE_ID_READING, autosaveDraft, autosaveIdSchema } from "./autosave.server";
import { listRevisions } from "./revisions.server";
import { sendBack } from "./review.server";
import { publishDueArticles } from "./scheduling.server";
import { trashArticle } from "./trash.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

const versionOf = async (id: string) => (await getArticle(db, id, EDITORS))!.version;
const editConflict = expect.objectContaining({ code: "edit-conflict", status: 409 });

/** An autosave request's fields, read as its route reads them. */
async function autosaveOf(fields: Record<string, string>) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const input = await readForm(articleSchema, form, AUTOSAVE_FORM_READING);
  return { input, id: (await readForm(autosaveIdSchema, form, AUTOSAVE_ID_READING)).id };
}

describe("an article's version (decision 034)", () => {
  it("counts the saves; a save based on an older version is refused and writes nothing: no row, no revision, no event", async () => {
    const { id } = await createTestArticle(db, { title: "الأصل" });
    expect(await versionOf(id)).toBe(1);
    expect(
      await updateArticle(db, id, edit({ title: "الأول", baseVersion: 1 }), { by: "a", kind: "save" }),
    ).toMatchObject({ version: 2 });
    const revisions = (await listRevisions(db, id)).length;
    const events = (await readEventsAfter(db, 0, 100)).length;

    const stale = updateArticle(db, id, edit({ title: "الثاني", baseVersion: 1 }), { by: "b", kind: "save" });
    await expect(stale).rejects.toBeInstanceOf(AppError);
    await expect(stale).rejects.toEqual(editConflict);
    const article = await getArticle(db, id, EDITORS);
    expect(article).toMatchObject({ title: "الأول", version: 2 });
    expect((await listRevisions(db, id)).length).toBe(revisions);
    expect((await readEventsAfter(db, 0, 100)).length).toBe(events);

    // Saved again on the version it was shown: accepted.
    expect(
      await updateArticle(db, id, edit({ title: "الثاني", baseVersion: 2 }), { by: "b", kind: "save" }),
    ).toMatchObject({ version: 3 });
  });

  it("of two saves on one base at the same moment, exactly one is written", async () => {
    const { id } = await createTestArticle(db, { title: "الأصل" });
    const results = await Promise.allSettled(
      ["أ", "ب", "ج"].map((title) =>
        updateArticle(db, id, edit({ title, baseVersion: 1 }), { by: title, kind: "save" }),
      ),
    );
    const written = results.filter((result) => result.status === "fulfilled");
    expect(written).toHaveLength(1);
    for (const result of results) if (result.status === "rejected") expect(result.reason).toEqual(editConflict);
    expect(await versionOf(id)).toBe(2);
  });

  it("autosave names its base too: a stale one is refused, and each one's answer is the base of the next", async () => {
    const actor = { id: "author-1", role: "author" as const };
    const { id } = await createTestArticle(db, { status: "draft", authorId: actor.id });
    const fields = { id, title: "مسودة", content: "نص المسودة", category: "local" };
    const first = await autosaveDraft(db, actor, await autosaveOf({ ...fields, baseVersion: "1" }));
    expect(first.version).toBe(2);
    expect(
      (await autosaveDraft(db, actor, await autosaveOf({ ...fields, baseVersion: String(first.version) }))).version,
    ).toBe(3);
    await expect(
      autosaveDraft(db, actor, await autosaveOf({ ...fields, title: "قديم", baseVersion: "2" })),
    ).rejects.toEqual(editConflict);
    expect(await getArticle(db, id, EDITORS)).toMatchObject({ title: "مسودة", version: 3 });
  });

  it("moves on with every other write of the story: a send-back, the scheduler's publication, the trash", async () => {
    const inReview = await createTestArticle(db, { status: "review" });
    await sendBack(db, inReview.id, { note: "أضف المصدر" });
    expect(await versionOf(inReview.id)).toBe(2);

    const scheduled = await createTestArticle(db, { status: "scheduled", publishAt: "2026-01-01T00:00:00.000Z" });
    await publishDueArticles(db, new Date("2026-01-02T00:00:00Z"));
    expect(await versionOf(scheduled.id)).toBe(2);
    // An editor's form opened on the scheduled version would have put it back to scheduled.
    await expect(
      updateArticle(
        db,
        scheduled.id,
        edit({ status: "scheduled", publishAt: "2026-01-01T00:00:00.000Z", baseVersion: 1 }),
      ),
    ).rejects.toEqual(editConflict);

    await trashArticle(db, scheduled.id, new Date());
    const row = await db.selectFrom("news").select("version").where("id", "=", scheduled.id).executeTakeFirstOrThrow();
    expect(Number(row.version)).toBe(3);
  });
});
