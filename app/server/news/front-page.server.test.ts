import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chooseFormSchema, removeFormSchema } from "~/lib/front-page";
import { frontPageMessages as fm } from "~/lib/newsroom-messages";
import { readForm } from "~/server/http/read-form.server";
import { isoToBeirutWallTime } from "~/lib/publish-time";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { createReadCache } from "~/server/platform/read-cache.server";
import { createTempDatabase } from "../../../harness/temp-db";
import { articleAt } from "../../../harness/articles";
import {
  categoryPins,
  choosePlacement,
  FRONT_PAGE_FORM_READING,
  frontPageCandidates,
  frontPageSlider,
  listPlacements,
  removeEndedPlacements,
  removePlacement,
} from "./front-page.server";
import { categoryPage, homeSections } from "./reader-lists.server";
import { trashArticle } from "./trash.server";

let db: DB;
let cleanup: () => Promise<void>;

beforeEach(async () => {
  ({ db, cleanup } = await createTempDatabase());
});
afterEach(async () => cleanup());

const NOW = new Date("2026-11-26T10:00:00Z");
const HOUR = 3_600_000;
/** The form's wall time in Beirut, `hours` after NOW. */
const inHours = (hours: number) => isoToBeirutWallTime(new Date(NOW.getTime() + hours * HOUR).toISOString());
const pictured = (minutes: number, overrides = {}) =>
  articleAt(db, minutes, { images: [`/media/news-images/${minutes}.webp`], ...overrides });
/** A form's fields, read as the dashboard's route reads them. */
function formOf(fields: Record<string, string>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}
const chooseFrom = async (fields: Record<string, string>) =>
  choosePlacement(db, await readForm(chooseFormSchema, formOf(fields), FRONT_PAGE_FORM_READING), "editor-id", NOW);
const removeFrom = async (fields: Record<string, string>) =>
  removePlacement(db, await readForm(removeFormSchema, formOf(fields), FRONT_PAGE_FORM_READING));
const choose = (place: string, newsId: string, hours = 24) => chooseFrom({ place, newsId, until: inHours(hours) });
const titles = (items: { title: string }[]) => items.map((item) => item.title);
const frontPageEvents = async () =>
  (await db.selectFrom("events").select("kind").where("kind", "=", "front-page-changed").execute()).length;

async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!AppError.is(error)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe("the slider", () => {
  it("with nothing chosen, takes the newest published with a picture, no video, no advertisement", async () => {
    await pictured(1);
    await pictured(2);
    await pictured(3, { video: "https://www.youtube.com/watch?v=abcdefghijk" });
    await pictured(4, { category: "advertisement" });
    await pictured(5, { status: "draft" });
    await articleAt(db, 6);
    await pictured(7);
    await pictured(8);
    await pictured(9);
    expect(titles(await frontPageSlider(db))).toEqual(["خبر 9", "خبر 8", "خبر 7", "خبر 2"]);
  });

  it("puts each chosen story in its place, fills the rest by the rule, never one story twice", async () => {
    const old = await pictured(1);
    const older = await pictured(0);
    for (const minutes of [10, 11, 12, 13]) await pictured(minutes);
    await choose("1", old);
    await choose("3", older);
    expect(titles(await frontPageSlider(db))).toEqual(["خبر 1", "خبر 13", "خبر 0", "خبر 12"]);
    // Choosing a story already in the slider for another slide moves it there.
    await choose("2", old);
    expect(titles(await frontPageSlider(db))).toEqual(["خبر 13", "خبر 1", "خبر 0", "خبر 12"]);
    expect((await listPlacements(db)).map((placement) => placement.slot)).toEqual(["slide:2", "slide:3"]);
  });

  it("drops a chosen story that is no longer published: its slot fills by the rule", async () => {
    const lead = await pictured(1);
    for (const minutes of [10, 11, 12, 13]) await pictured(minutes);
    await choose("1", lead);
    expect(titles(await frontPageSlider(db))[0]).toBe("خبر 1");
    await trashArticle(db, lead);
    expect(titles(await frontPageSlider(db))).toEqual(["خبر 13", "خبر 12", "خبر 11", "خبر 10"]);
  });

  it("refuses what the slider cannot show, and bad forms, with Arabic messages by field, changing nothing", async () => {
    const good = await pictured(1);
    const draft = await pictured(2, { status: "draft" });
    const bare = await articleAt(db, 3);
    const video = await pictured(4, { video: "https://www.youtube.com/watch?v=abcdefghijk" });
    const cases: [Record<string, string>, string, string][] = [
      [{ place: "1", newsId: draft, until: inHours(2) }, "newsId", fm.notPublished],
      [{ place: "1", newsId: "لا-يوجد", until: inHours(2) }, "newsId", fm.notPublished],
      [{ place: "1", newsId: bare, until: inHours(2) }, "newsId", fm.needsPicture],
      [{ place: "2", newsId: video, until: inHours(2) }, "newsId", fm.needsPicture],
      [{ place: "5", newsId: good, until: inHours(2) }, "place", fm.placeInvalid],
      [{ place: "0", newsId: good, until: inHours(2) }, "place", fm.placeInvalid],
      [{ place: "1", newsId: good, until: inHours(-1) }, "until", fm.untilPast],
      [{ place: "1", newsId: good, until: inHours(24 * 400) }, "until", fm.untilTooFar],
      [{ place: "1", newsId: good, until: "99999-01-01T00:00" }, "until", fm.untilInvalid],
      [{ place: "1", newsId: good, until: "2026-13-40T10:00" }, "until", fm.untilInvalid],
      [{ place: "1", newsId: good }, "until", fm.untilInvalid],
      [{ place: "1", newsId: "x".repeat(5000), until: inHours(2) }, "newsId", fm.articleRequired],
      [{ place: "1", newsId: "", until: inHours(2) }, "newsId", fm.articleRequired],
    ];
    for (const [form, field, message] of cases) {
      const error = await refusal(chooseFrom(form));
      expect([error.code, error.fields?.[field]], JSON.stringify(form).slice(0, 80)).toEqual(["validation", message]);
    }
    const nul = await refusal(chooseFrom({ place: "1", newsId: `${good}\u0000`, until: inHours(2) }));
    expect(nul.status).toBe(400);
    expect((await refusal(removeFrom({ slot: "slide:9" }))).fields?.slot).toBe(fm.slotInvalid);
    expect(await listPlacements(db)).toEqual([]);
    expect(await frontPageEvents()).toBe(0);
  });
});

describe("the stories to choose from", () => {
  it("are the published ones, newest first, found by a part of their title; a NUL in the search is dropped", async () => {
    await articleAt(db, 1, { title: "سوق الخضار في حلبا" });
    await articleAt(db, 2, { title: "سوق السمك في الميناء" });
    await articleAt(db, 3, { title: "سوق مسودة", status: "draft" });
    expect(titles(await frontPageCandidates(db, ""))).toEqual(["سوق السمك في الميناء", "سوق الخضار في حلبا"]);
    expect(titles(await frontPageCandidates(db, "سوق"))).toEqual(["سوق السمك في الميناء", "سوق الخضار في حلبا"]);
    expect(titles(await frontPageCandidates(db, "الخضار\u0000"))).toEqual(["سوق الخضار في حلبا"]);
    expect(await frontPageCandidates(db, "100%_")).toEqual([]);
  });
});

describe("category pins", () => {
  it("heads the category's page and its home section, once, while the story is published in it", async () => {
    const pinned = await articleAt(db, 1, { category: "sports" });
    for (const minutes of [10, 11, 12, 13]) await articleAt(db, minutes, { category: "sports" });
    await choose("pin", pinned);
    expect([...(await categoryPins(db)).keys()]).toEqual(["sports"]);
    const page = await categoryPage(db, createReadCache(), "sports", 1, 3);
    expect(titles(page.items)).toEqual(["خبر 1", "خبر 13", "خبر 12"]);
    const sports = (await homeSections(db, createReadCache(), 3)).find((section) => section.category === "sports");
    expect(titles(sports!.items)).toEqual(["خبر 1", "خبر 13", "خبر 12"]);
    await db.updateTable("news").set({ category: "local" }).where("id", "=", pinned).execute();
    expect((await categoryPins(db)).size).toBe(0);
  });
});

describe("changes and their end", () => {
  it("records one front-page event per change, and removal is one call", async () => {
    const story = await pictured(1);
    await choose("1", story);
    await choose("pin", story);
    expect(await frontPageEvents()).toBe(2);
    await removeFrom({ slot: "slide:1" });
    expect(await frontPageEvents()).toBe(3);
    // A slot nobody holds changes nothing.
    await removeFrom({ slot: "slide:1" });
    expect(await frontPageEvents()).toBe(3);
    expect((await listPlacements(db)).map((placement) => placement.slot)).toEqual(["pin:local"]);
  });

  it("removes ended placements with one event, however many rounds run at once", async () => {
    const story = await pictured(1);
    const other = await pictured(2);
    await choose("1", story, 1);
    await choose("2", other, 48);
    const before = await frontPageEvents();
    expect(await removeEndedPlacements(db, new Date(NOW.getTime() + 30 * 60_000))).toBe(0);
    const later = new Date(NOW.getTime() + 2 * HOUR);
    const removed = await Promise.all([
      removeEndedPlacements(db, later),
      removeEndedPlacements(db, later),
      removeEndedPlacements(db, later),
    ]);
    expect(removed.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await frontPageEvents()).toBe(before + 1);
    expect((await listPlacements(db)).map((placement) => placement.slot)).toEqual(["slide:2"]);
  });
});
