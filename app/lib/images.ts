/** Widths of the WebP variants made for every stored image. */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;

const STORED_IMAGE = /^(\/media\/news-images\/[^/]+)\.webp$/;

export function variantUrl(base: string, width: number): string {
  return `${base}-${width}w.webp`;
}

/**
 * src and srcset for an image URL; images from elsewhere get no srcset. `onlyWidth`: a slot so small
 * that one variant covers every screen density gets that variant alone.
 */
export function imageSources(url: string, preferredWidth = 800, onlyWidth?: number): { src: string; srcSet?: string } {
  const match = STORED_IMAGE.exec(url);
  if (!match?.[1]) return { src: url };
  const base = match[1];
  if (onlyWidth) return { src: variantUrl(base, onlyWidth) };
  return {
    src: variantUrl(base, preferredWidth),
    srcSet: IMAGE_WIDTHS.map((w) => `${variantUrl(base, w)} ${w}w`).join(", "),
  };
}
