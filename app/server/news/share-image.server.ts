import { SHARE_IMAGE_SIZE } from "~/lib/story-fields";
import { variantUrl } from "~/lib/images";
import type { NewsArticle } from "~/lib/news";
import { storedFocalCrop } from "~/server/media/cropped-images.server";
import { storedImageSize } from "~/server/media/media.server";
import type { MediaStorage } from "~/server/media/storage.server";

export type ShareImage = { url: string; width?: number; height?: number };

const STORED = /^(\/media\/news-images\/[^/]+)\.webp$/;

/** The image previews use: the story's own share picture, else the cover cut to the share size around its focal point, or its 1200 px variant, or the article's image URL. */
export async function shareImageFor(
  storage: MediaStorage,
  article: Pick<NewsArticle, "images" | "imageUrl" | "story" | "imageFocus">,
): Promise<ShareImage | null> {
  if (article.story.shareImage)
    return { url: article.story.shareImage, width: SHARE_IMAGE_SIZE[0], height: SHARE_IMAGE_SIZE[1] };
  const first = article.images[0] ?? article.imageUrl;
  if (!first) return null;
  const base = STORED.exec(first)?.[1];
  if (!base) return { url: first };
  if (article.imageFocus) {
    const cropped = await storedFocalCrop(storage, first, article.imageFocus, SHARE_IMAGE_SIZE);
    if (cropped) return { url: cropped, width: SHARE_IMAGE_SIZE[0], height: SHARE_IMAGE_SIZE[1] };
  }
  const url = variantUrl(base, 1200);
  const size = await storedImageSize(storage, url);
  return size ? { url, ...size } : { url };
}
