import { editorMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { isNewsroomMember, type Actor } from "~/lib/permissions";
import { storeImageFile, MAX_IMAGE_BYTES } from "~/server/media/media.server";
import { MULTIPART_FRAMING_BYTES, type Submission, type UploadLimits } from "~/server/http/multipart-form.server";
import { AppError } from "~/server/platform/app-error.server";
import { removeMedia } from "./article-media.server";
import { recordLibraryImages } from "./media-library.server";
import type { Newsroom } from "./newsroom.server";

/** The editor's image upload: one file, as `image`. */
export const BODY_IMAGE_LIMITS: UploadLimits = {
  files: { image: { maxBytes: MAX_IMAGE_BYTES, tooLarge: newsroomMessages.imageTooLarge } },
  maxFiles: 1,
  maxFields: 0,
  tooMany: { image: editorMessages.bodyImageOne },
  maxFieldBytes: 1024,
  fieldTooLong: {},
  maxBodyBytes: MAX_IMAGE_BYTES + MULTIPART_FRAMING_BYTES,
};

/**
 * An image the editor places in an article's body: stored as every article image is (WebP and its
 * width variants) and put in the media library, its `/media/news-images/…` path returned for the document.
 */
export async function storeBodyImage(
  { db, storage, clock }: Newsroom,
  actor: Actor,
  submission: Submission,
): Promise<string> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
  const file = submission.files[0];
  if (!file)
    throw new AppError("validation", {
      message: editorMessages.bodyImageOne,
      fields: { image: editorMessages.bodyImageOne },
    });
  const image = await storeImageFile(storage, file.path, file.filename);
  try {
    await recordLibraryImages(db, [image], actor.id, clock.now());
  } catch (error) {
    await removeMedia(storage, [image.url]);
    throw error;
  }
  return image.url;
}
