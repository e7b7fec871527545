import { useLayoutEffect, useRef, useState, type MouseEvent } from "react";
import type { FocalPoint } from "~/lib/media-library";
import { mediaLibraryMessages as text } from "~/lib/newsroom-messages";
import { NewsImage } from "./news-image";

const round = (value: number) => Math.round(Math.min(1, Math.max(0, value)) * 10_000) / 10_000;

/**
 * A library image whole, where a click sets its focal point (shown as a ring), and beside it the 16:9
 * and the portrait crops readers see of it around that point. A keyboard press (no pointer position) sets nothing.
 */
export function FocalPointPicker({
  url,
  alt,
  focal,
  width,
  height,
  onPick,
}: {
  url: string;
  alt: string;
  focal: FocalPoint | null;
  width: number | null;
  height: number | null;
  onPick: (point: FocalPoint) => void;
}) {
  const [point, setPoint] = useState<FocalPoint | null>(focal);
  const [seen, setSeen] = useState(focal);
  if (seen !== focal) {
    setSeen(focal);
    setPoint(focal);
  }
  const pick = (event: MouseEvent<HTMLButtonElement>) => {
    if (event.detail === 0) return;
    const box = event.currentTarget.getBoundingClientRect();
    if (box.width === 0 || box.height === 0) return;
    const picked = {
      x: round((event.clientX - box.left) / box.width),
      y: round((event.clientY - box.top) / box.height),
    };
    setPoint(picked);
    onPick(picked);
  };
  const marker = useRef<HTMLSpanElement>(null);
  // Through the DOM, not a style attribute: the site's CSP allows none.
  useLayoutEffect(() => {
    const shown = point ?? { x: 0.5, y: 0.5 };
    marker.current?.style.setProperty("left", `${shown.x * 100}%`);
    marker.current?.style.setProperty("top", `${shown.y * 100}%`);
  }, [point]);
  return (
    <div className="space-y-2">
      <button
        type="button"
        onClick={pick}
        className="relative block w-full cursor-crosshair overflow-hidden rounded bg-stone-100"
        aria-label={text.focalHint}
        data-testid="focal-picker"
      >
        <NewsImage
          url={url}
          alt={alt}
          sizes="(min-width: 1280px) 25rem, (min-width: 640px) 50vw, 100vw"
          width={width ?? 1600}
          height={height ?? 900}
          className="h-auto w-full"
        />
        <span
          ref={marker}
          aria-hidden="true"
          data-testid="focal-marker"
          className="pointer-events-none absolute left-1/2 top-1/2 size-6 -translate-x-1/2 -translate-y-1/2 rounded-full border-2 border-white shadow-[0_0_0_2px_rgb(0_0_0/0.6)]"
        />
      </button>
      <p className="text-xs text-stone-500">{text.focalHint}</p>
      <div className="flex items-center gap-2 text-xs text-stone-500">
        <span>{text.focalLabel}:</span>
        <span className="block aspect-video w-24 overflow-hidden rounded ring-1 ring-stone-200">
          <NewsImage
            url={url}
            alt=""
            sizes="96px"
            onlyWidth={400}
            boxed
            className="size-full object-cover"
            position={point}
          />
        </span>
        <span className="block aspect-[9/16] w-10 overflow-hidden rounded ring-1 ring-stone-200">
          <NewsImage
            url={url}
            alt=""
            sizes="40px"
            onlyWidth={400}
            boxed
            className="size-full object-cover"
            position={point}
          />
        </span>
      </div>
    </div>
  );
}
