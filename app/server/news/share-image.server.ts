import { SHARE_IMAGE_SIZE } from "~/lib/story-fields";
import { variantUrl } from "~/lib/images";
import type { NewsArticle } from "~/lib/news";
import { storedImageSize } from "~/server/media/media.server";
import type { MediaStorage } from "~/server/media/storage.server";

export type ShareImage = { url: string; width?: number; height?: number };

const STORED = /^(\/media\/news-images\/[^/]+)\.webp$/;

/** The image previews use: the story's own share picture, else the 1200 px variant of the first stored image, or the article's image URL. */
export async function shareImageFor(storage: MediaStorage, article: Pick<NewsArticle, "images" | "imageUrl" | "story">): Promise<ShareImage | null> {
  if (article.story.shareImage) return { url: article.story.shareImage, width: SHARE_IMAGE_SIZE[0], height: SHARE_IMAGE_SIZE[1] };
  const first = article.images[0] ?? article.imageUrl;
  if (!first) return null;
  const base = STORED.exec(first)?.[1];
  if (!base) return { url: first };
  const url = variantUrl(base, 1200);
  const size = await storedImageSize(storage, url);
  return size ? { url, ...size } : { url };
}
