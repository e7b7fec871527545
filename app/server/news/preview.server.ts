import { articleFields, articleIdField, withArticleText, withImageDetails } from "~/lib/article-schema";
import { articleFormValues } from "~/lib/article-form-fields";
import { creditOf, type Credit } from "~/lib/bylines";
import type { ImageDetailsMap } from "~/lib/image-details";
import { imageDetailMessages } from "~/lib/newsroom-messages";
import { articleFieldOf } from "~/lib/field-errors";
import type { Category } from "~/lib/categories";
import type { RichDocument } from "~/lib/rich-text/document";
import type { Actor } from "~/lib/permissions";
import type { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import type { ReadFormOptions } from "~/server/http/read-form.server";
import { AppError } from "~/server/platform/app-error.server";
import { EDITORS } from "~/lib/audience";
import { getArticle } from "./articles-read.server";
import { libraryHolds } from "./media-library.server";
import { keptImagesInOrder } from "./publishing.server";
import { assertRevisionsAccess } from "./revision-access.server";
import { posterOfVideo } from "./video-posters.server";

/** What the preview shows: every field of the form the article page shows, from its unsaved values, with the media the article already has. */
export type Preview = {
  title: string;
  standfirst: string | null;
  credit: Credit | null;
  body: RichDocument;
  category: Category;
  images: string[];
  imageDetails: ImageDetailsMap;
  video: string | null;
  videoPoster?: string;
  time: string;
  topics: { name: string }[];
};

export const previewSchema = articleFields
  .pick({
    title: true,
    content: true,
    body: true,
    category: true,
    standfirst: true,
    byline: true,
    videoUrl: true,
    imageUrl: true,
    removeImages: true,
    imageOrder: true,
    imageAlt: true,
    imageCaption: true,
    imageCredit: true,
    topics: true,
  })
  .extend({ id: articleIdField.optional() })
  .transform(withArticleText)
  .transform(withImageDetails);

/** The form's fields as previewSchema checked them, and the article's `id` when it has one. */
export type PreviewInput = z.output<typeof previewSchema>;

/**
 * How the preview's form is read into previewSchema (http/read-form): its values (lib/article-form-fields.ts)
 * and `id`. The preview is a page of its own, away from the form: it shows the first field's message.
 */
export const PREVIEW_FORM_READING: ReadFormOptions = {
  values: ({ texts }) => ({ ...articleFormValues(texts), id: texts("id")?.[0] || undefined }),
  fieldOf: articleFieldOf,
  message: "first",
};

/** Who the page would credit: the byline typed, else the story's author (the actor, for a story not saved yet). */
async function creditOfPreview(
  db: DB,
  byline: string | null,
  id: string | undefined,
  actor: Actor,
): Promise<Credit | null> {
  if (byline) return creditOf(byline, null);
  const authorId = id
    ? (await db.selectFrom("news").select("author_id").where("id", "=", id).executeTakeFirst())?.author_id
    : actor.id;
  const author = authorId
    ? await db.selectFrom("user").select("name").where("id", "=", authorId).executeTakeFirst()
    : undefined;
  return creditOf(null, author?.name ?? null);
}

/** The article as readers would see it from the posted form; nothing is stored. Throws an AppError for an article the actor may not edit. */
export async function previewFromForm(db: DB, actor: Actor, input: PreviewInput, now = new Date()): Promise<Preview> {
  const { id, title, standfirst, byline, body, category, videoUrl, imageUrl } = input;
  let video = videoUrl;
  if (id) await assertRevisionsAccess(db, actor, id);
  const article = id ? await getArticle(db, id, EDITORS) : null;
  const current = article?.images ?? [];
  // Images taken from the media library show beside the article's own.
  const fromLibrary = await libraryHolds(
    db,
    (input.imageOrder ?? []).filter((url) => !current.includes(url)),
  );
  const images = keptImagesInOrder(current, input, fromLibrary);
  if (!images) throw new AppError("validation", { fields: { imageDetails: imageDetailMessages.notOfArticle } });
  const imageDetails: ImageDetailsMap = { ...article?.imageDetails, ...input.imageDetails };
  if (article) video ??= article.video?.startsWith("/media/") ? article.video : null;
  const topics = (input.topics ?? []).map((name) => ({ name }));
  const videoPoster = video ? await posterOfVideo(db, video) : undefined;
  return {
    title,
    standfirst,
    credit: await creditOfPreview(db, byline, id, actor),
    body,
    category,
    images: imageUrl ? [...images, imageUrl] : images,
    imageDetails,
    video,
    ...(videoPoster ? { videoPoster } : {}),
    time: now.toISOString(),
    topics,
  };
}
