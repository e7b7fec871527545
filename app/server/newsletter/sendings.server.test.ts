import { afterEach, beforeEach, expect, it } from "vitest";
import { createTempDatabase } from "../../../harness/temp-db";
import { createTestArticle } from "../../../harness/articles";
import type { DB } from "~/server/db/db.server";
import { briefMoment, ensureNextBrief, nextBriefDay, pickBriefStories } from "./sendings.server";

let db: DB;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ db, cleanup } = await createTempDatabase()));
afterEach(async () => cleanup());

it("the next brief is today's until its hour in Beirut, then tomorrow's", () => {
  const before = new Date("2026-11-29T04:00:00Z"); // 06:00 in Beirut
  expect(nextBriefDay(before, 7)).toBe("2026-11-29");
  expect(briefMoment("2026-11-29", 7).toISOString()).toBe("2026-11-29T05:00:00.000Z");
  expect(nextBriefDay(new Date("2026-11-29T05:01:00Z"), 7)).toBe("2026-11-30");
});

it("a brief's draft holds the last day's stories, newest and most read", async () => {
  const older = await createTestArticle(db, { title: "أمس", createdAt: new Date(Date.now() - 30 * 3600_000) });
  const story = await createTestArticle(db, { title: "اليوم" });
  const now = new Date(Date.now() + 3600_000);
  expect(await pickBriefStories(db, now)).toEqual([story.id]);
  await ensureNextBrief(db, now, 7);
  const draft = await db.selectFrom("newsletter_sendings").select(["story_ids", "status"]).executeTakeFirstOrThrow();
  expect(draft).toEqual({ story_ids: JSON.stringify([story.id]), status: "draft" });
  expect(older.id).not.toBe(story.id);
});
