import { imageSources } from "~/lib/images";
import { focalClassOf, type FocalPoint } from "~/lib/media-library";
import { RemovedImage, useIsRemoved } from "./removed-media";

type Props = {
  url: string;
  alt: string;
  sizes: string;
  className?: string;
  /** The first, above-the-fold image loads at once (decoded off the main thread); the rest wait until near the viewport. */
  eager?: boolean;
  width?: number;
  height?: number;
  /** A slot narrower than a third of this many pixels: this variant alone, no srcset. */
  onlyWidth?: number;
  /** The image fills a box whose CSS gives its size and look (a thumbnail's .thumb): no width, height or news-img. */
  boxed?: boolean;
  /** The image's focal point: a crop by its box (object-cover) keeps it in frame. */
  position?: FocalPoint | null;
};

export function NewsImage({
  url,
  alt,
  sizes,
  className = "",
  eager = false,
  width = 1600,
  height = 900,
  onlyWidth,
  boxed = false,
  position,
}: Props) {
  const removed = useIsRemoved(url);
  if (removed) return <RemovedImage className={boxed ? className : "aspect-video w-full"} />;
  const { src, srcSet } = imageSources(url, undefined, onlyWidth);
  const classes = [boxed ? "" : "news-img", className, focalClassOf(position)].filter(Boolean).join(" ");
  return (
    <img
      src={src}
      srcSet={srcSet}
      sizes={srcSet ? sizes : undefined}
      alt={alt}
      width={boxed ? undefined : width}
      height={boxed ? undefined : height}
      loading={eager ? "eager" : "lazy"}
      fetchPriority={eager ? "high" : undefined}
      decoding={eager ? "async" : undefined}
      className={classes || undefined}
    />
  );
}
