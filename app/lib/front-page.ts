import { CATEGORIES, type Category } from "./categories";
import { SLIDER_COUNT } from "./constants";
import { frontPageMessages as fm } from "./newsroom-messages";
import { z } from "./zod";

/*
 * The front page editors choose (decision 031): the slider's slides, slide 1 the lead story, and one story
 * pinned on top of each category, each until a time. Shared by the dashboard's form and the domain.
 */

export type Slot = `slide:${number}` | `pin:${Category}`;

export function slideSlot(position: number): Slot {
  return `slide:${position}`;
}

export function pinSlot(category: Category): Slot {
  return `pin:${category}`;
}

const SLOTS = new Set<string>([
  ...Array.from({ length: SLIDER_COUNT }, (_, index) => slideSlot(index + 1)),
  ...CATEGORIES.map(pinSlot),
]);

export function isSlot(value: string): value is Slot {
  return SLOTS.has(value);
}

/** How far ahead an end time may be. */
export const PLACEMENT_MAX_MS = 366 * 24 * 60 * 60 * 1000;
/** The end time the form offers. */
export const PLACEMENT_DEFAULT_MS = 24 * 60 * 60 * 1000;

/** "1"…"4" a slide, "pin" on top of the story's category. */
const PLACES: [string, ...string[]] = ["pin", ...Array.from({ length: SLIDER_COUNT }, (_, index) => String(index + 1))];

/** The dashboard's form: choose a story for a place until a time (a Beirut wall time), or remove one slot's choice. */
export const chooseFormSchema = z.object({
  place: z.enum(PLACES, { error: fm.placeInvalid }),
  newsId: z.string({ error: fm.articleRequired }).min(1, fm.articleRequired).max(200, fm.articleRequired),
  until: z.string({ error: fm.untilInvalid }).max(40, fm.untilInvalid),
});

export const removeFormSchema = z.object({ slot: z.string({ error: fm.slotInvalid }).refine(isSlot, fm.slotInvalid) });
