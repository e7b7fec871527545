import { AUTHOR_PHOTO_SIZE, parseLinks, type AuthorProfile, type authorProfileSchema } from "~/lib/author-profile";
import { storyMessages, newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import type { z } from "~/lib/zod";
import type { StagedFile, UploadLimits } from "~/server/http/multipart-form.server";
import type { ReadFormOptions } from "~/server/http/read-form.server";
import { storeCroppedImages } from "~/server/media/cropped-images.server";
import { MAX_IMAGE_BYTES } from "~/server/media/media.server";
import { mediaNameOf, type MediaStorage } from "~/server/media/storage.server";
import { recordSiteEvent, writeWithEvents } from "~/server/outbox/outbox.server";
import { AppError } from "~/server/platform/app-error.server";

/* An author's page: photo (user.image), bio and links, edited by its owner. */

const FIELDS = new Set(["intent", "bio", "links", "removePhoto"]);

/** The profile form: one photo, a bio, the links; nothing else. */
export const PROFILE_FORM_LIMITS: UploadLimits = {
  files: { photo: { maxBytes: MAX_IMAGE_BYTES, tooLarge: newsroomMessages.imageTooLarge } },
  maxFiles: 1,
  maxFields: 8,
  tooMany: { photo: storyMessages.photo },
  maxFieldBytes: 16 * 1024,
  maxBodyBytes: MAX_IMAGE_BYTES + 64 * 1024,
  fieldTooLong: { bio: storyMessages.bioTooLong, links: storyMessages.linkInvalid },
};

export async function readAuthorProfile(db: DB, userId: string): Promise<AuthorProfile | null> {
  const row = await db.selectFrom("user").select(["image", "bio", "links"]).where("id", "=", userId).executeTakeFirst();
  return row ? { photo: row.image, bio: row.bio, links: parseLinks(row.links) } : null;
}

/** The profile of the account named `username` (the author page's address), or null. */
export async function authorProfileByName(db: DB, username: string): Promise<AuthorProfile | null> {
  const row = await db
    .selectFrom("user")
    .select(["image", "bio", "links"])
    .where("name", "=", username)
    .executeTakeFirst();
  return row ? { photo: row.image, bio: row.bio, links: parseLinks(row.links) } : null;
}

/** How the profile form is read into authorProfileSchema (http/read-form): nothing but its fields; its first problem is the answer. */
export const PROFILE_FORM_READING: ReadFormOptions = { known: FIELDS, message: "first", fields: "first" };
export type AuthorProfileInput = z.output<typeof authorProfileSchema>;

/**
 * Saves `userId`'s profile from the checked form: the photo stored (by its bytes, cropped to a square as
 * the settings' images are), the row and its outbox event in one transaction; the photo it replaces is removed after.
 */
export async function saveAuthorProfile(
  db: DB,
  storage: MediaStorage,
  userId: string,
  profile: AuthorProfileInput,
  files: readonly StagedFile[],
): Promise<void> {
  const current = await readAuthorProfile(db, userId);
  if (!current) throw new AppError("not-found");
  const file = files.find((f) => f.field === "photo");
  const upload = {
    field: "photo",
    folder: "author-photos",
    tooSmall: storyMessages.photoTooSmall,
    huge: storyMessages.photoHuge,
  };
  const photo = file
    ? ((await storeCroppedImages(storage, upload, file.path, [{ key: "photo", size: AUTHOR_PHOTO_SIZE, fit: "cover" }]))
        .photo ?? null)
    : profile.removePhoto
      ? null
      : current.photo;
  try {
    await writeWithEvents(db, async (trx) => {
      await trx
        .updateTable("user")
        .set({
          image: photo,
          bio: profile.bio,
          links: JSON.stringify(profile.links),
          updatedAt: new Date().toISOString(),
        })
        .where("id", "=", userId)
        .execute();
      await recordSiteEvent(trx, "profile-changed");
    });
  } catch (error) {
    if (file && photo) await storage.delete([mediaNameOf(photo)!]);
    throw error;
  }
  const replaced = current.photo && current.photo !== photo ? mediaNameOf(current.photo) : null;
  if (replaced?.startsWith("author-photos/")) await storage.delete([replaced]);
}
