import { isCategory, type Category } from "~/lib/categories";
import { SLIDER_COUNT } from "~/lib/constants";
import {
  PLACEMENT_MAX_MS,
  pinSlot,
  slideSlot,
  type chooseFormSchema,
  type removeFormSchema,
  type Slot,
} from "~/lib/front-page";
import { frontPageMessages as fm } from "~/lib/newsroom-messages";
import type { NewsSummary } from "~/lib/news";
import { parsePublishAt } from "~/lib/publish-time";
import { sql } from "kysely";
import type { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import type { ReadFormOptions } from "~/server/http/read-form.server";
import { containsPattern } from "~/server/db/like.server";
import { recordSiteEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import { AppError } from "~/server/platform/app-error.server";
import { listArticlesByIds, listLatest, listSlider } from "./articles-read.server";

/*
 * The front page editors choose (decision 031): slides 1…4 of the slider (1 is the lead story) and a
 * story pinned on top of each category, each until a time. Slots nobody chose are filled by SPEC's rule
 * (articles-read `listSlider`); a chosen story that is no longer published drops out and its slot fills.
 * Every change writes a `front-page-changed` event in its transaction, so every process empties its caches.
 */

export type Placement = {
  slot: Slot;
  kind: "slide" | "pin";
  position: number;
  category: Category | null;
  newsId: string;
  until: string;
};

type PlacementRow = {
  slot: string;
  kind: "slide" | "pin";
  position: number;
  category: string | null;
  news_id: string;
  until: string;
};

function toPlacement(row: PlacementRow): Placement {
  return {
    slot: row.slot as Slot,
    kind: row.kind,
    position: Number(row.position),
    category: row.category !== null && isCategory(row.category) ? row.category : null,
    newsId: row.news_id,
    until: row.until,
  };
}

/** An article as lists carry it: without its text. */
function summaryOf({ content: _text, ...summary }: NewsSummary & { content: string }): NewsSummary {
  return summary;
}

/** Every placement held, slides by position then pins. */
export async function listPlacements(db: DB): Promise<Placement[]> {
  const rows = await db
    .selectFrom("front_page_placements")
    .select(["slot", "kind", "position", "category", "news_id", "until"])
    .orderBy("kind", "desc")
    .orderBy("position")
    .orderBy("slot")
    .execute();
  return rows.map(toPlacement);
}

/** The slider readers see: each slide chosen and still published in its place, the rest filled by the rule, no story twice. */
export async function frontPageSlider(db: DB): Promise<NewsSummary[]> {
  const slides = (await listPlacements(db)).filter(
    (placement) => placement.kind === "slide" && placement.position <= SLIDER_COUNT,
  );
  const [chosen, newest] = await Promise.all([
    listArticlesByIds(
      db,
      slides.map((slide) => slide.newsId),
    ),
    listSlider(db, SLIDER_COUNT + slides.length),
  ]);
  const chosenById = new Map<string, NewsSummary>(chosen.map((article) => [article.id, summaryOf(article)]));
  const shown = new Set(chosenById.keys());
  const fill = newest.filter((item) => !shown.has(item.id));
  const slider: NewsSummary[] = [];
  for (let position = 1; position <= SLIDER_COUNT; position++) {
    const slide = slides.find((placement) => placement.position === position);
    const item = (slide && chosenById.get(slide.newsId)) ?? fill.shift();
    if (item) slider.push(item);
  }
  return slider;
}

/** The story pinned on top of each category, while it is published and still of that category. */
export async function categoryPins(db: DB): Promise<Map<Category, NewsSummary>> {
  const pins = (await listPlacements(db)).filter(
    (placement) => placement.kind === "pin" && placement.category !== null,
  );
  const articles = await listArticlesByIds(
    db,
    pins.map((pin) => pin.newsId),
  );
  const byId = new Map<string, NewsSummary>(articles.map((article) => [article.id, summaryOf(article)]));
  const result = new Map<Category, NewsSummary>();
  for (const pin of pins) {
    const article = byId.get(pin.newsId);
    if (article && article.category === pin.category) result.set(pin.category, article);
  }
  return result;
}

/** Each category's newest `limit`, its pinned story first. */
export function withPins(
  sections: Map<Category, NewsSummary[]>,
  pins: Map<Category, NewsSummary>,
  limit: number,
): Map<Category, NewsSummary[]> {
  const result = new Map<Category, NewsSummary[]>();
  for (const [category, items] of sections) {
    const pin = pins.get(category);
    result.set(category, (pin ? [pin, ...items.filter((item) => item.id !== pin.id)] : items).slice(0, limit));
  }
  return result;
}

/** Published stories an editor may choose, newest first; with `query`, those whose title holds it (a NUL, which no title holds, dropped). */
export async function frontPageCandidates(db: DB, query: string, limit = 40): Promise<NewsSummary[]> {
  const words = query.replaceAll("\u0000", "").trim();
  if (!words) return listLatest(db, { limit });
  const rows = await db
    .selectFrom("news")
    .select("id")
    .where("status", "=", "published")
    .where(sql<boolean>`news.title like ${containsPattern(words)} escape '\\'`)
    .orderBy("published_at", "desc")
    .limit(limit)
    .execute();
  return (
    await listArticlesByIds(
      db,
      rows.map((row) => row.id),
    )
  ).map(summaryOf);
}

function refused(field: string, message: string): AppError {
  return new AppError("validation", { message, fields: { [field]: message } });
}

/** How the dashboard's forms are read into chooseFormSchema and removeFormSchema (http/read-form): the first message above the form, each beside its field. */
export const FRONT_PAGE_FORM_READING: ReadFormOptions = { message: "first" };
export type PlacementChoice = z.output<typeof chooseFormSchema>;
export type PlacementRemoval = z.output<typeof removeFormSchema>;

/** The end time of a form: a Beirut wall time in the future, within a year. */
function untilOf(value: string, now: Date): string {
  const until = parsePublishAt(value);
  if (!until) throw refused("until", fm.untilInvalid);
  const ms = Date.parse(until);
  if (ms <= now.getTime()) throw refused("until", fm.untilPast);
  if (ms > now.getTime() + PLACEMENT_MAX_MS) throw refused("until", fm.untilTooFar);
  return until;
}

/**
 * An editor's choice from the dashboard's form: a published story as slide 1…4 (taken from any other
 * slide it held) or pinned on top of its category, until a time. Refusals are validation errors by field.
 */
export async function choosePlacement(
  db: DB,
  { place, newsId, until: wallTime }: PlacementChoice,
  by: string,
  now: Date,
): Promise<Placement> {
  const until = untilOf(wallTime, now);
  const article = await db
    .selectFrom("news")
    .select(["id", "status", "category", "is_video", "images", "image_url"])
    .where("id", "=", newsId)
    .executeTakeFirst();
  if (!article || article.status !== "published") throw refused("newsId", fm.notPublished);
  const category = isCategory(article.category) ? article.category : null;
  const slide = place === "pin" ? null : Number(place);
  if (slide !== null && (Number(article.is_video) === 1 || (article.images === "[]" && !article.image_url)))
    throw refused("newsId", fm.needsPicture);
  if (slide === null && category === null) throw refused("newsId", fm.notPublished);
  const placement: Placement =
    slide === null
      ? { slot: pinSlot(category!), kind: "pin", position: 0, category, newsId, until }
      : { slot: slideSlot(slide), kind: "slide", position: slide, category: null, newsId, until };
  await writeWithEvents(db, async (trx) => {
    if (placement.kind === "slide") {
      await trx.deleteFrom("front_page_placements").where("kind", "=", "slide").where("news_id", "=", newsId).execute();
    }
    const row = {
      slot: placement.slot,
      kind: placement.kind,
      position: placement.position,
      category: placement.category,
      news_id: newsId,
      until,
      set_by: by,
      set_at: now.toISOString(),
    };
    await trx
      .insertInto("front_page_placements")
      .values(row)
      .onConflict((conflict) =>
        conflict
          .column("slot")
          .doUpdateSet({ news_id: newsId, until, set_by: by, set_at: row.set_at, category: row.category }),
      )
      .execute();
    await recordSiteEvent(trx, "front-page-changed");
  });
  return placement;
}

/** One click on "إزالة": the slot goes back to the rule. A slot nobody holds changes nothing. */
export async function removePlacement(db: DB, { slot }: PlacementRemoval): Promise<void> {
  await writeWithEvents(db, async (trx) => {
    const removed = await trx.deleteFrom("front_page_placements").where("slot", "=", slot).executeTakeFirst();
    if (Number(removed.numDeletedRows) > 0) await recordSiteEvent(trx, "front-page-changed");
  });
}

/**
 * The scheduler's round: placements whose time has come to an end go, with one event. Any number of
 * processes may run it at once: only the one whose delete removed rows records the event (PostgreSQL's
 * second delete waits for the first's row locks and then finds them gone; SQLite writes one at a time).
 */
export async function removeEndedPlacements(db: DB, now: Date): Promise<number> {
  const at = now.toISOString();
  const ended = await db
    .selectFrom("front_page_placements")
    .select("slot")
    .where("until", "<=", at)
    .limit(1)
    .executeTakeFirst();
  if (!ended) return 0;
  return writeWithEvents(db, async (trx) => {
    const removed = await trx.deleteFrom("front_page_placements").where("until", "<=", at).executeTakeFirst();
    const count = Number(removed.numDeletedRows);
    if (count > 0) await recordSiteEvent(trx, "front-page-changed");
    return count;
  });
}
