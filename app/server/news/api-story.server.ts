import type { SavedStory } from "~/lib/edit-conflict";
import type { Actor } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { editableArticle } from "./publishing.server";
import { topicsOfArticle } from "./topics.server";

/** A story as the newsroom's API gives it: its form's fields, its dates and review note, and its version (decision 034). */
export type ApiStory = SavedStory & {
  content: string;
  publishAt: string | null;
  reviewNote: string | null;
  createdAt: string;
  updatedAt: string | null;
  publishedAt: string | null;
  shareImage: string | null;
};

/** The article's own fields the API gives; the rest of the row stays in the server. */
const API_FIELDS = [
  "id",
  "title",
  "content",
  "body",
  "category",
  "status",
  "publishAt",
  "byline",
  "images",
  "video",
  "imageUrl",
  "createdAt",
  "updatedAt",
  "publishedAt",
  "version",
] as const;

/** The story `id` as saved now, for `actor`, who must be allowed to edit it (404 or 403 otherwise). */
export async function apiStory(db: DB, id: string, actor: Actor): Promise<ApiStory> {
  const { article, reviewNote } = await editableArticle(db, id, actor);
  const topics = (await topicsOfArticle(db, article.id)).map((topic) => topic.name);
  const given = Object.fromEntries(API_FIELDS.map((field) => [field, article[field]])) as Pick<
    typeof article,
    (typeof API_FIELDS)[number]
  >;
  return { ...given, reviewNote, ...article.story, topics };
}

/**
 * What an edit-conflict answer carries besides the error: the story as saved now (`current`), so a
 * client shows the compare without asking again; nothing when the actor may no longer edit it.
 */
export async function conflictDetails(db: DB, id: string, actor: Actor): Promise<{ current?: ApiStory }> {
  try {
    return { current: await apiStory(db, id, actor) };
  } catch (error) {
    if (AppError.is(error) && (error.code === "not-found" || error.code === "forbidden")) return {};
    throw error;
  }
}
