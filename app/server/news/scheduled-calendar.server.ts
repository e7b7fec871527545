import { localDay, monthParam, monthSpan, type CalendarMonth } from "~/lib/calendar-month";
import { canEditArticle, isEditor, type Actor } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";

/** `editable`: whether the actor may open it in the form (lib/permissions.ts); an author may not once it is scheduled. */
export type ScheduledStory = {
  id: string;
  title: string;
  publishAt: string;
  authorName: string | null;
  editable: boolean;
};

/**
 * The scheduled stories that go out in `month`, by the site's calendar day ("YYYY-MM-DD"), each day's
 * in time order: every one for an editor, an author's own for an author.
 */
export async function scheduledInMonth(
  db: DB,
  actor: Actor,
  month: CalendarMonth,
): Promise<Record<string, ScheduledStory[]>> {
  const span = monthSpan(month);
  const rows = await db
    .selectFrom("news")
    .leftJoin("user", "user.id", "news.author_id")
    .select(["news.id", "news.title", "news.publish_at", "news.author_id", "user.name"])
    .where("news.status", "=", "scheduled")
    .where("news.publish_at", ">=", span.from)
    .where("news.publish_at", "<", span.to)
    .$if(!isEditor(actor), (query) => query.where("news.author_id", "=", actor.id))
    .orderBy("news.publish_at")
    .orderBy("news.id")
    .execute();
  const prefix = `${monthParam(month)}-`;
  const days: Record<string, ScheduledStory[]> = {};
  for (const row of rows) {
    if (!row.publish_at) continue;
    const day = localDay(new Date(row.publish_at));
    if (!day.startsWith(prefix)) continue;
    (days[day] ??= []).push({
      id: row.id,
      title: row.title,
      publishAt: new Date(row.publish_at).toISOString(),
      authorName: row.name,
      editable: canEditArticle(actor, { authorId: row.author_id, status: "scheduled" }),
    });
  }
  return days;
}
