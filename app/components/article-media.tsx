import { messages } from "~/lib/messages";
import { videoSource } from "~/lib/video";
import { detailsOf, type ImageDetails, type ImageDetailsMap } from "~/lib/image-details";
import { ImageCaption } from "./image-caption";
import type { FocalPoint } from "~/lib/media-library";
import { imageSources } from "~/lib/images";
import { NewsImage } from "./news-image";
import { YoutubeFacade } from "./youtube-facade";

/** The article's images in their order, the first (the cover) large; each cropped around its focal point, with its alt text, caption and credit (decision 025). */
export function ArticleImages({
  images,
  details,
  title,
  focus = {},
}: {
  images: string[];
  details: ImageDetailsMap;
  title: string;
  focus?: Record<string, FocalPoint>;
}) {
  if (images.length === 0) return null;
  const [first, ...rest] = images;
  return (
    <div className="article-images space-y-3" data-testid="article-images">
      {first && (
        <ArticleFigure
          url={first}
          details={detailsOf(details, first)}
          fallbackAlt={title}
          sizes="(min-width: 1024px) 760px, 100vw"
          eager
          focus={focus[first]}
        />
      )}
      {rest.length > 0 && (
        <div className={`grid gap-3 ${rest.length > 1 ? "grid-cols-2" : "grid-cols-1"}`}>
          {rest.map((url, index) => (
            <ArticleFigure
              key={url}
              url={url}
              details={detailsOf(details, url)}
              fallbackAlt={`${messages.imageOf}: ${title} (${index + 2})`}
              sizes="(min-width: 1024px) 380px, 50vw"
              focus={focus[url]}
            />
          ))}
        </div>
      )}
    </div>
  );
}

function ArticleFigure({
  url,
  details,
  fallbackAlt,
  sizes,
  eager,
  focus,
}: {
  url: string;
  details: ImageDetails;
  fallbackAlt: string;
  sizes: string;
  eager?: boolean;
  focus?: FocalPoint;
}) {
  return (
    <figure>
      <NewsImage
        url={url}
        alt={details.alt || fallbackAlt}
        sizes={sizes}
        eager={eager}
        className="aspect-video w-full rounded-lg"
        position={focus}
      />
      <ImageCaption caption={details.caption} credit={details.credit} />
    </figure>
  );
}

/** The article's video: a file plays in <video> with its poster; a YouTube link is a facade that loads nothing from YouTube until played. */
export function ArticleVideo({ url, title, poster }: { url: string | null; title: string; poster?: string }) {
  const source = videoSource(url);
  if (!source) return null;
  return (
    <figure className="overflow-hidden rounded-lg bg-black" data-testid="article-video">
      {source.kind === "youtube" ? (
        <YoutubeFacade videoId={source.id} title={title} {...(poster ? { poster } : {})} />
      ) : (
        <video
          src={source.url}
          poster={poster ? imageSources(poster, 1200).src : undefined}
          controls
          preload="metadata"
          className="aspect-video w-full object-contain"
          aria-label={`${messages.articleVideo}: ${title}`}
        />
      )}
    </figure>
  );
}
