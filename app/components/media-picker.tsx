import { useEffect, useState } from "react";
import type { LibraryEntry } from "~/lib/media-library";
import { mediaLibraryMessages as text } from "~/lib/newsroom-messages";
import { NewsImage } from "./news-image";

/** What a picked image can become where the picker is: a cover, a gallery image, a figure in the text. */
export type PickAction = { label: string; pick: (image: LibraryEntry) => void };

const button = "rounded border border-stone-300 bg-white px-2 py-1 text-sm font-bold hover:bg-stone-100";
const field = "min-w-0 flex-1 rounded border border-stone-300 bg-white px-2 py-1.5 text-sm";

/**
 * The media library inside a form: a button opens a searchable grid of library images (from
 * /api/media/library), each with the form's actions; an image is taken by its URL, never uploaded again.
 */
export function MediaPicker({ actions, testId = "media-picker" }: { actions: PickAction[]; testId?: string }) {
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState("");
  const [asked, setAsked] = useState("");
  const [state, setState] = useState<{ status: "loading" | "failed" } | { status: "ready"; images: LibraryEntry[] }>({
    status: "loading",
  });

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    setState({ status: "loading" });
    fetch(`/api/media/library?${new URLSearchParams(asked ? { q: asked } : {})}`, {
      headers: { Accept: "application/json" },
      signal: controller.signal,
    })
      .then(async (response) => {
        if (!response.ok) throw new Error(String(response.status));
        const body = (await response.json()) as { images: LibraryEntry[] };
        setState({ status: "ready", images: body.images });
      })
      .catch(() => {
        if (!controller.signal.aborted) setState({ status: "failed" });
      });
    return () => controller.abort();
  }, [open, asked]);

  if (!open) {
    return (
      <button type="button" className={button} onClick={() => setOpen(true)} data-testid={`${testId}-open`}>
        {text.pick}
      </button>
    );
  }
  return (
    <div
      className="space-y-3 rounded border border-stone-300 bg-white p-3"
      data-testid={testId}
      role="group"
      aria-label={text.pickTitle}
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-bold">{text.pickTitle}</p>
        <button type="button" className={button} onClick={() => setOpen(false)}>
          {text.pickClose}
        </button>
      </div>
      <div className="flex gap-2">
        <input
          type="search"
          value={query}
          maxLength={100}
          aria-label={text.search}
          placeholder={text.search}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={(event) => {
            if (event.key !== "Enter") return;
            event.preventDefault();
            setAsked(query.trim());
          }}
          className={field}
        />
        <button type="button" className={button} onClick={() => setAsked(query.trim())}>
          {text.apply}
        </button>
      </div>
      {state.status === "loading" && <p className="text-sm text-stone-500">{text.loading}</p>}
      {state.status === "failed" && <p className="text-sm font-bold text-brand-700">{text.loadFailed}</p>}
      {state.status === "ready" &&
        (state.images.length === 0 ? (
          <p className="text-sm text-stone-500">{asked ? text.noMatches : text.empty}</p>
        ) : (
          <ul className="grid max-h-96 grid-cols-2 gap-3 overflow-y-auto sm:grid-cols-3">
            {state.images.map((image) => (
              <li key={image.url} className="min-w-0 space-y-1" data-testid="picker-item" data-url={image.url}>
                <span className="block aspect-video overflow-hidden rounded bg-stone-100">
                  <NewsImage
                    url={image.url}
                    alt={image.alt}
                    sizes="200px"
                    onlyWidth={400}
                    boxed
                    className="size-full object-cover"
                    position={image.focal}
                  />
                </span>
                {image.caption && <p className="truncate text-xs">{image.caption}</p>}
                <div className="flex flex-wrap gap-1">
                  {actions.map((action) => (
                    <button
                      key={action.label}
                      type="button"
                      className={button}
                      onClick={() => {
                        action.pick(image);
                        setOpen(false);
                      }}
                    >
                      {action.label}
                    </button>
                  ))}
                </div>
              </li>
            ))}
          </ul>
        ))}
    </div>
  );
}
