import { AUTHOR_PHOTO_SIZE, authorProfileSchema, parseLinks, type AuthorProfile } from "~/lib/author-profile";
import { storyMessages, newsroomMessages } from "~/lib/newsroom-messages";
import type { DB } from "~/server/db/db.server";
import type { Submission, UploadLimits } from "~/server/http/multipart-form.server";
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

/**
 * Saves `userId`'s profile from the form: every field checked before the photo is stored (by its
 * bytes, cropped to a square as the settings' images are), the row and its outbox event in one
 * transaction; the photo it replaces is removed after.
 */
export async function saveAuthorProfile(
  db: DB,
  storage: MediaStorage,
  userId: string,
  submission: Submission,
): Promise<void> {
  const unknown = Object.keys(submission.fields).find((field) => !FIELDS.has(field));
  if (unknown !== undefined)
    throw new AppError("validation", {
      message: newsroomMessages.fieldUnknown,
      fields: { [unknown]: newsroomMessages.fieldUnknown },
    });
  const parsed = authorProfileSchema.safeParse({
    bio: submission.fields.bio?.[0],
    links: submission.fields.links?.[0],
    removePhoto: submission.fields.removePhoto?.[0],
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = String(issue?.path[0] ?? "form");
    throw new AppError("validation", {
      message: issue?.message,
      fields: { [field]: issue?.message ?? newsroomMessages.fieldUnknown },
    });
  }
  const current = await readAuthorProfile(db, userId);
  if (!current) throw new AppError("not-found");
  const file = submission.files.find((f) => f.field === "photo");
  const upload = {
    field: "photo",
    folder: "author-photos",
    tooSmall: storyMessages.photoTooSmall,
    huge: storyMessages.photoHuge,
  };
  const photo = file
    ? ((await storeCroppedImages(storage, upload, file.path, [{ key: "photo", size: AUTHOR_PHOTO_SIZE, fit: "cover" }]))
        .photo ?? null)
    : parsed.data.removePhoto
      ? null
      : current.photo;
  try {
    await writeWithEvents(db, async (trx) => {
      await trx
        .updateTable("user")
        .set({
          image: photo,
          bio: parsed.data.bio,
          links: JSON.stringify(parsed.data.links),
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
