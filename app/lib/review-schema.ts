import { z } from "./zod";
import { newsroomMessages } from "./newsroom-messages";

export const REVIEW_NOTE_MAX = 2_000;

/** An editor's note when sending an article back to its author. */
export const reviewNoteSchema = z
  .string({ error: newsroomMessages.reviewNoteRequired })
  .transform((text) => text.replace(/\r\n?/g, "\n").trim())
  .pipe(
    z.string().min(1, newsroomMessages.reviewNoteRequired).max(REVIEW_NOTE_MAX, newsroomMessages.reviewNoteTooLong),
  );
