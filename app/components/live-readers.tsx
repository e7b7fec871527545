import { useEffect, useState } from "react";
import { statsMessages as m } from "~/lib/newsroom-messages";
import { articleIdPath } from "~/lib/news";

type Live = { readers: number; stories: { id: string; title: string; readers: number }[] };

/** How often the "now" panel asks again; it reads the database, so every instance's readers are in it. */
const LIVE_REFRESH_MS = 5_000;

/** Readers in the last five minutes and the stories they are on, asked for again every few seconds while the page is shown. */
export function LiveReaders({ initial }: { initial: Live }) {
  const [live, setLive] = useState(initial);
  useEffect(() => setLive(initial), [initial]);
  useEffect(() => {
    let stopped = false;
    const refresh = async () => {
      if (document.visibilityState !== "visible") return;
      try {
        const response = await fetch("/api/stats/live", { headers: { Accept: "application/json" } });
        if (response.ok && !stopped) setLive((await response.json()) as Live);
      } catch {
        // Offline for a moment: the next tick tries again.
      }
    };
    const timer = setInterval(() => void refresh(), LIVE_REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  const number = (n: number) => n.toLocaleString("ar-LB");
  return (
    <section
      aria-labelledby="live-title"
      className="space-y-3 rounded-lg bg-white p-4 ring-1 ring-stone-200"
      data-testid="stats-live"
    >
      <h2 id="live-title" className="flex items-center gap-2 font-bold">
        <svg width="10" height="10" aria-hidden="true">
          <circle cx="5" cy="5" r="5" className="fill-green-600" />
        </svg>
        {m.now}
      </h2>
      <p>
        <span className="text-3xl font-bold" data-testid="live-readers">
          {number(live.readers)}
        </span>{" "}
        <span className="text-stone-600">{m.nowReaders}</span>
      </p>
      {live.stories.length === 0 ? (
        <p className="text-sm text-stone-500">{m.nowEmpty}</p>
      ) : (
        <ol className="space-y-1 text-sm" data-testid="live-stories">
          {live.stories.map((story) => (
            <li key={story.id} className="flex items-baseline justify-between gap-3" data-story={story.id}>
              <a href={articleIdPath(story.id)} className="min-w-0 break-words text-brand-700 hover:underline">
                {story.title}
              </a>
              <span className="shrink-0 font-bold">{number(story.readers)}</span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
