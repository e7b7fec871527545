import { MAX_IMAGES, type ArticleFieldErrors } from "~/lib/article-schema";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { MAX_IMAGE_BYTES, MAX_VIDEO_BYTES } from "~/server/media/media.server";
import type { UploadLimits } from "~/server/http/multipart-form.server";

export const TOO_MANY_FILES: ArticleFieldErrors = { images: newsroomMessages.tooManyFiles };

const MAX_FIELDS = 60;
const MAX_FIELD_BYTES = 512 * 1024;

/** The largest submission's body: every file (the images, the share picture, the video) and every field at its limit. deploy/nginx.conf's client_max_body_size matches it. */
export const MAX_SUBMISSION_BYTES = (MAX_IMAGES + 1) * MAX_IMAGE_BYTES + MAX_VIDEO_BYTES + MAX_FIELDS * MAX_FIELD_BYTES;

/** What one article submission may hold: files, their sizes, fields. */
export const ARTICLE_FORM_LIMITS: UploadLimits = {
  files: {
    images: { maxBytes: MAX_IMAGE_BYTES, tooLarge: newsroomMessages.imageTooLarge },
    video: { maxBytes: MAX_VIDEO_BYTES, tooLarge: newsroomMessages.videoTooLarge },
    shareImage: { maxBytes: MAX_IMAGE_BYTES, tooLarge: newsroomMessages.imageTooLarge },
  },
  maxFiles: MAX_IMAGES + 2,
  maxFields: MAX_FIELDS,
  tooMany: TOO_MANY_FILES,
  maxFieldBytes: MAX_FIELD_BYTES,
  maxBodyBytes: MAX_SUBMISSION_BYTES,
  fieldTooLong: {
    title: newsroomMessages.titleTooLong,
    content: newsroomMessages.contentTooLong,
    body: newsroomMessages.contentTooLong,
  },
};
