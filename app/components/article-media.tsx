import { messages } from "~/lib/messages";
import { videoSource } from "~/lib/video";
import { NewsImage } from "./news-image";

export function ArticleImages({ images, title }: { images: string[]; title: string }) {
  if (images.length === 0) return null;
  const [first, ...rest] = images;
  return (
    <div className="space-y-3" data-testid="article-images">
      {first && (
        <NewsImage url={first} alt={title} sizes="(min-width: 1024px) 760px, 100vw" eager className="aspect-video w-full rounded-lg" />
      )}
      {rest.length > 0 && (
        <div className={`grid gap-3 ${rest.length > 1 ? "grid-cols-2" : "grid-cols-1"}`}>
          {rest.map((url, index) => (
            <NewsImage key={url} url={url} alt={`${messages.imageOf}: ${title} (${index + 2})`} sizes="(min-width: 1024px) 380px, 50vw" className="aspect-video w-full rounded-lg" />
          ))}
        </div>
      )}
    </div>
  );
}

export function ArticleVideo({ url, title }: { url: string | null; title: string }) {
  const source = videoSource(url);
  if (!source) return null;
  return (
    <figure className="overflow-hidden rounded-lg bg-black" data-testid="article-video">
      {source.kind === "youtube" ? (
        <iframe
          src={source.embedUrl}
          title={`${messages.articleVideo}: ${title}`}
          loading="lazy"
          allow="accelerometer; encrypted-media; gyroscope; picture-in-picture; fullscreen"
          referrerPolicy="strict-origin-when-cross-origin"
          className="aspect-video w-full"
        />
      ) : (
        <video src={source.url} controls preload="metadata" className="aspect-video w-full" aria-label={`${messages.articleVideo}: ${title}`} />
      )}
    </figure>
  );
}
