import { imageSources } from "~/lib/images";

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
  /** The image fills a box whose CSS gives its size (a thumbnail's .thumb): no width and height. */
  boxed?: boolean;
};

export function NewsImage({ url, alt, sizes, className = "", eager = false, width = 1600, height = 900, onlyWidth, boxed = false }: Props) {
  const { src, srcSet } = imageSources(url, undefined, onlyWidth);
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
      className={className ? `news-img ${className}` : "news-img"}
    />
  );
}
