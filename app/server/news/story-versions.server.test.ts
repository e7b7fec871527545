import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { articleChanges as edit, createTestArticle } from "../../../harness/articles";
import { EDITORS } from "~/lib/audience";
import { compareVersions } from "~/lib/story-version";
import type { DB } from "~/server/db/db.server";
import { getArticle } from "./articles-read.server";
import { updateArticle } from "./articles-write.server";
import { previewRestore, restoreRevision } from "./restore-revision.server";
import { listRevisions } from "./revisions.server";
import { listVersions, loadVersion, parseVersionRef } from "./story-versions.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
});
afterEach(async () => {
  await cleanup();
});

const COVER = "/media/news-images/cover.webp";
const SECOND = "/media/news-images/second.webp";
const VIDEO = "/media/news-videos/clip.mp4";

async function user(name: string): Promise<string> {
  const id = "user-sara";
  const now = new Date().toISOString();
  await db
    .insertInto("user")
    .values({
      id,
      name,
      email: "sara@example.com",
      emailVerified: 0,
      image: null,
      createdAt: now,
      updatedAt: now,
      role: "author",
    })
    .execute();
  return id;
}

/** Decision 035's story: an autosave without pictures, then the cover, a second photo and the video added and the text rewritten. */
async function storyWithMediaAddedLater() {
  const author = await user("سارة");
  const { id } = await createTestArticle(db, {
    title: "عنوان أول",
    content: "نص أول قصير",
    authorId: author,
    status: "draft",
  });
  await updateArticle(db, id, edit({ title: "عنوان مسودة", content: "وصل الوفد إلى طرابلس", status: "draft" }), {
    by: author,
    kind: "autosave",
  });
  await updateArticle(
    db,
    id,
    edit({
      title: "عنوان منشور",
      content: "وصل الوفد الرسمي إلى بيروت",
      images: [COVER, SECOND],
      video: VIDEO,
      imageDetails: { [COVER]: { alt: "ميناء", caption: "", credit: "" } },
    }),
    { by: author, kind: "save" },
  );
  const revisions = await listRevisions(db, id);
  return { id, author, autosaved: revisions[0]!.id, first: revisions[1]!.id };
}

describe("versions", () => {
  it("reads version references from URLs and nothing else", () => {
    expect(parseVersionRef("current")).toBe("current");
    expect(parseVersionRef("12")).toBe(12);
    for (const bad of [null, "", "0", "-1", "1.5", "abc", "1e3", "99999999999999999999", "1\u0000"])
      expect(parseVersionRef(bad)).toBeNull();
  });

  it("tells each version's save from an autosave, with who and when, the live one first", async () => {
    const { id, author, autosaved, first } = await storyWithMediaAddedLater();
    const versions = await listVersions(db, id);
    expect(versions.map(({ ref, title, kind, by }) => ({ ref, title, kind, by }))).toEqual([
      { ref: "current", title: "عنوان منشور", kind: "save", by: "سارة" },
      { ref: autosaved, title: "عنوان مسودة", kind: "autosave", by: "سارة" },
      { ref: first, title: "عنوان أول", kind: "created", by: "سارة" },
    ]);
    expect(author).toBeTruthy();
    expect(versions.every((v) => !Number.isNaN(Date.parse(v.at)))).toBe(true);
  });

  it("compares any two versions: words added and removed, other fields, media", async () => {
    const { id, autosaved } = await storyWithMediaAddedLater();
    const comparison = compareVersions(
      (await loadVersion(db, id, autosaved))!,
      (await loadVersion(db, id, "current"))!,
    );
    expect(comparison.text.filter((p) => p.kind !== "same").map((p) => [p.kind, p.text.trim()])).toEqual([
      ["added", "الرسمي"],
      ["removed", "طرابلس"],
      ["added", "بيروت"],
    ]);
    expect(comparison.media).toMatchObject({
      imagesAdded: [COVER, SECOND],
      imagesRemoved: [],
      cover: { from: null, to: COVER },
      videoAdded: VIDEO,
      videoRemoved: null,
    });
    expect(await loadVersion(db, "no-such-story", "current")).toBeNull();
    expect(await loadVersion(db, id, 999_999)).toBeNull();
  });

  it("restores the text alone and keeps the live story's pictures and video", async () => {
    const { id, autosaved } = await storyWithMediaAddedLater();
    const preview = await previewRestore(db, id, autosaved);
    expect(preview.text.removed).toEqual([]);
    expect(preview.full.removed).toEqual([COVER, SECOND, VIDEO]);
    await restoreRevision(db, id, autosaved, "editor-1", {
      mode: "text",
      confirmedRemovals: [],
      baseVersion: preview.version,
    });
    const article = await getArticle(db, id, EDITORS);
    expect(article).toMatchObject({
      title: "عنوان مسودة",
      content: "وصل الوفد إلى طرابلس",
      images: [COVER, SECOND],
      video: VIDEO,
    });
    expect(article?.imageDetails[COVER]?.alt).toBe("ميناء");
  });

  it("refuses a full restore that takes media off unless each was confirmed, changing nothing", async () => {
    const { id, autosaved } = await storyWithMediaAddedLater();
    const before = await getArticle(db, id, EDITORS);
    const revisionsBefore = (await listRevisions(db, id)).length;
    for (const confirmedRemovals of [[], [COVER, SECOND]]) {
      await expect(
        restoreRevision(db, id, autosaved, "editor-1", {
          mode: "full",
          confirmedRemovals,
          baseVersion: before!.version,
        }),
      ).rejects.toMatchObject({ code: "validation", status: 400 });
    }
    expect(await getArticle(db, id, EDITORS)).toEqual(before);
    expect((await listRevisions(db, id)).length).toBe(revisionsBefore);
    await restoreRevision(db, id, autosaved, "editor-1", {
      mode: "full",
      confirmedRemovals: [COVER, SECOND, VIDEO],
      baseVersion: before!.version,
    });
    expect(await getArticle(db, id, EDITORS)).toMatchObject({ title: "عنوان مسودة", images: [], video: null });
  });
});
