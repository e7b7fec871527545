import { slugOf, SHARE_IMAGE_SIZE, type StoryFields } from "~/lib/story-fields";
import { storyMessages } from "~/lib/newsroom-messages";
import type { StagedFile } from "~/server/http/multipart-form.server";
import { storeCroppedImages } from "~/server/media/cropped-images.server";
import type { MediaStorage } from "~/server/media/storage.server";
import type { DB } from "~/server/db/db.server";

/* The story's own fields between the form, the row and the page. */

/** The columns of `news` (and `news_revisions`) that hold them. */
export const STORY_COLUMNS = [
  "standfirst",
  "slug",
  "share_title",
  "share_description",
  "share_image",
  "noindex",
] as const;

type StoryRow = {
  standfirst: string | null;
  slug: string | null;
  share_title: string | null;
  share_description: string | null;
  share_image: string | null;
  noindex: number;
};

export function storyOfRow(row: StoryRow): StoryFields {
  return {
    standfirst: row.standfirst,
    slug: row.slug,
    shareTitle: row.share_title,
    shareDescription: row.share_description,
    shareImage: row.share_image,
    noindex: Number(row.noindex) === 1,
  };
}

/** Changes to the story's fields; a field left out stays as it is. */
export type StoryChanges = Partial<StoryFields>;

/**
 * The columns to write for `changes` over the row's current slug: a slug, once made, is kept until an
 * editor types another (a retitled story keeps its address); a published article without one gets its title's.
 */
export function storyColumns(
  changes: StoryChanges,
  current: { slug: string | null; title: string; published: boolean },
) {
  const slug = changes.slug ?? current.slug;
  return {
    ...(changes.standfirst !== undefined ? { standfirst: changes.standfirst } : {}),
    slug: slug ?? (current.published ? slugOf(current.title) : null),
    ...(changes.shareTitle !== undefined ? { share_title: changes.shareTitle } : {}),
    ...(changes.shareDescription !== undefined ? { share_description: changes.shareDescription } : {}),
    ...(changes.shareImage !== undefined ? { share_image: changes.shareImage } : {}),
    ...(changes.noindex !== undefined ? { noindex: changes.noindex ? 1 : 0 } : {}),
  };
}

/** The form's share picture, checked by its bytes and cropped to 1200×630 as the settings' share image is, stored under share-images/; null when none was sent. */
export async function storeShareImage(storage: MediaStorage, files: readonly StagedFile[]): Promise<string | null> {
  const file = files.find((f) => f.field === "shareImage");
  if (!file) return null;
  const upload = {
    field: "shareImage",
    folder: "share-images",
    tooSmall: storyMessages.shareImageTooSmall,
    huge: storyMessages.shareImageHuge,
  };
  const made = await storeCroppedImages(storage, upload, file.path, [
    { key: "share", size: SHARE_IMAGE_SIZE, fit: "cover" },
  ]);
  return made.share ?? null;
}

/** Gives a just-published article without a slug the slug of its title (the scheduler's publication); returns its slug. */
export async function ensureSlug(trx: DB, id: string, title: string, current: string | null): Promise<string | null> {
  if (current) return current;
  const slug = slugOf(title);
  await trx.updateTable("news").set({ slug }).where("id", "=", id).where("slug", "is", null).execute();
  return slug;
}
