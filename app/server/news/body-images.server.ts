import { editorMessages, messages } from "~/lib/messages";
import { isNewsroomMember, type Actor } from "~/lib/permissions";
import { storeImageFile, MAX_IMAGE_BYTES } from "~/server/media/media.server";
import { MULTIPART_FRAMING_BYTES, type Submission, type UploadLimits } from "~/server/http/multipart-form.server";
import { AppError } from "~/server/platform/app-error.server";
import type { Newsroom } from "./publishing.server";

/** The editor's image upload: one file, as `image`. */
export const BODY_IMAGE_LIMITS: UploadLimits = {
  files: { image: { maxBytes: MAX_IMAGE_BYTES, tooLarge: messages.imageTooLarge } },
  maxFiles: 1,
  maxFields: 0,
  tooMany: { image: editorMessages.bodyImageOne },
  maxFieldBytes: 1024,
  fieldTooLong: {},
  maxBodyBytes: MAX_IMAGE_BYTES + MULTIPART_FRAMING_BYTES,
};

/**
 * An image the editor places in an article's body: stored as every article image is (WebP and its
 * width variants), its `/media/news-images/…` path returned for the document. Until a saved body
 * names it, the start-up sweep treats it as any media no article refers to.
 */
export async function storeBodyImage({ storage }: Newsroom, actor: Actor, submission: Submission): Promise<string> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
  const file = submission.files[0];
  if (!file) throw new AppError("validation", { message: editorMessages.bodyImageOne, fields: { image: editorMessages.bodyImageOne } });
  return storeImageFile(storage, file.path, file.filename);
}
