import { useEffect, useState } from "react";
import { SLIDER_INTERVAL_MS } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { island } from "~/islands/island";
import { articlePath, shownTime, type NewsTeaser } from "~/lib/news";
import { CategoryBadge } from "./news-card";
import { ChevronEndIcon, ChevronStartIcon, PauseIcon, PlayIcon } from "./icons";
import { NewsImage } from "./news-image";
import { RelativeTime } from "./relative-time";

function prefersReducedMotion(): boolean {
  return window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The home page's featured slides: rotates every 4 s, pausable, never moves for reduced motion. */
function Slides({ items }: { items: NewsTeaser[] }) {
  const [current, setCurrent] = useState(0);
  const [playing, setPlaying] = useState(true);
  const [hovered, setHovered] = useState(false);

  useEffect(() => {
    if (prefersReducedMotion()) setPlaying(false);
  }, []);

  useEffect(() => {
    if (!playing || hovered || items.length < 2) return;
    const timer = window.setInterval(() => setCurrent((c) => (c + 1) % items.length), SLIDER_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [playing, hovered, items.length]);

  if (items.length === 0) return null;
  const go = (index: number) => setCurrent((index + items.length) % items.length);

  return (
    <section
      aria-roledescription="carousel"
      aria-label={messages.featured}
      className="relative overflow-hidden rounded-lg bg-stone-900"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setHovered(true)}
      onBlur={() => setHovered(false)}
      data-testid="slider"
    >
      <div aria-live={playing ? "off" : "polite"}>
        {items.map((item, index) => (
          <div
            key={item.id}
            role="group"
            aria-roledescription="slide"
            aria-label={`${index + 1} / ${items.length}`}
            hidden={index !== current}
            className="relative aspect-[4/3] sm:aspect-[21/9]"
          >
            {item.image && (
              <NewsImage
                url={item.image}
                alt={item.title}
                sizes="(min-width: 1152px) 1152px, 100vw"
                eager={index === 0}
                className="absolute inset-0 size-full"
                position={item.imageFocus}
              />
            )}
            <div className="absolute inset-0 bg-gradient-to-t from-black/85 via-black/30 to-transparent" />
            <div className="absolute inset-x-0 bottom-0 p-4 pb-12 sm:p-8 sm:pb-14">
              <CategoryBadge category={item.category} />
              <h2 className="mt-2 text-xl leading-snug font-bold text-white sm:text-3xl">
                <a href={articlePath(item.id, item.slug)} className="hover:underline">
                  {item.title}
                </a>
              </h2>
              <RelativeTime iso={shownTime(item)} className="mt-1 block text-sm text-white/80" />
            </div>
          </div>
        ))}
      </div>
      <div className="absolute bottom-3 inset-x-3 flex items-center justify-between gap-2">
        <div className="flex gap-1">
          <button
            type="button"
            onClick={() => go(current - 1)}
            aria-label={messages.previousSlide}
            className="rounded-full bg-white/20 p-1.5 text-white hover:bg-white/40"
          >
            <ChevronStartIcon />
          </button>
          <button
            type="button"
            onClick={() => setPlaying((p) => !p)}
            aria-label={playing ? messages.pauseSlider : messages.playSlider}
            className="rounded-full bg-white/20 p-1.5 text-white hover:bg-white/40"
          >
            {playing ? <PauseIcon /> : <PlayIcon />}
          </button>
          <button
            type="button"
            onClick={() => go(current + 1)}
            aria-label={messages.nextSlide}
            className="rounded-full bg-white/20 p-1.5 text-white hover:bg-white/40"
          >
            <ChevronEndIcon />
          </button>
        </div>
        <div className="flex gap-1.5">
          {items.map((item, index) => (
            <button
              key={item.id}
              type="button"
              onClick={() => go(index)}
              aria-label={`${messages.goToSlide} ${index + 1}`}
              aria-current={index === current}
              className="flex h-6 min-w-6 items-center justify-center"
            >
              <span
                className={`block h-2.5 rounded-full transition-all ${index === current ? "w-6 bg-white" : "w-2.5 bg-white/50"}`}
              />
            </button>
          ))}
        </div>
      </div>
    </section>
  );
}

export const Slider = island("slider", Slides);
