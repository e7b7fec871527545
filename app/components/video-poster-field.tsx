import { useRef, useState } from "react";
import { errorOf } from "~/lib/error-body";
import { imageSources } from "~/lib/images";
import { mediaLibraryMessages as text } from "~/lib/newsroom-messages";

const button =
  "rounded border border-stone-300 bg-white px-3 py-1.5 text-sm font-bold hover:bg-stone-100 disabled:opacity-40";

/**
 * The poster of the article's saved video: the frame the video shows, captured in the browser into a
 * canvas, or a picture chosen from the disk, saved at once (/api/media/posters) as an image of the library.
 * A YouTube video plays in another origin's frame, which no canvas can read: it takes an uploaded picture only.
 */
export function VideoPosterField({
  articleId,
  video,
  youtube,
  poster,
}: {
  articleId: string;
  video: string;
  youtube: boolean;
  poster?: string;
}) {
  const [current, setCurrent] = useState(poster);
  const [state, setState] = useState<{ busy: boolean; message: string | null; failed: boolean }>({
    busy: false,
    message: null,
    failed: false,
  });
  const player = useRef<HTMLVideoElement>(null);

  async function save(picture: Blob, name: string) {
    setState({ busy: true, message: text.posterSaving, failed: false });
    const body = new FormData();
    body.set("articleId", articleId);
    body.set("poster", picture, name);
    try {
      const response = await fetch("/api/media/posters", {
        method: "POST",
        body,
        headers: { Accept: "application/json" },
      });
      const json = (await response.json().catch(() => null)) as { url?: string } | null;
      if (!response.ok || !json?.url) {
        const refusal = errorOf(json);
        return setState({
          busy: false,
          message: refusal?.fields?.poster ?? refusal?.message ?? text.posterFailed,
          failed: true,
        });
      }
      setCurrent(json.url);
      setState({ busy: false, message: text.posterSaved, failed: false });
    } catch {
      setState({ busy: false, message: text.posterFailed, failed: true });
    }
  }

  function capture() {
    const element = player.current;
    if (!element || element.videoWidth === 0)
      return setState({ busy: false, message: text.posterCaptureFailed, failed: true });
    const canvas = document.createElement("canvas");
    canvas.width = element.videoWidth;
    canvas.height = element.videoHeight;
    try {
      canvas.getContext("2d")?.drawImage(element, 0, 0);
      canvas.toBlob(
        (blob) =>
          blob
            ? void save(blob, "frame.jpg")
            : setState({ busy: false, message: text.posterCaptureFailed, failed: true }),
        "image/jpeg",
        0.9,
      );
    } catch {
      // A video from another site without CORS taints the canvas.
      setState({ busy: false, message: text.posterCaptureFailed, failed: true });
    }
  }

  return (
    <fieldset className="space-y-2" data-testid="video-poster-field" aria-busy={state.busy}>
      <legend className="font-bold">{text.poster}</legend>
      <p className="text-sm text-stone-500">{youtube ? text.posterHintYoutube : text.posterHint}</p>
      <div className="grid gap-3 sm:grid-cols-2">
        {!youtube && (
          <video
            ref={player}
            src={video}
            poster={current ? imageSources(current, 800).src : undefined}
            controls
            preload="metadata"
            className="aspect-video w-full rounded bg-black"
          />
        )}
        {current && (
          <figure className="space-y-1">
            <img
              src={imageSources(current, 400, 400).src}
              alt={text.posterCurrent}
              className="aspect-video w-full rounded object-contain bg-black"
              data-testid="video-poster-current"
            />
            <figcaption className="text-xs text-stone-500">{text.posterCurrent}</figcaption>
          </figure>
        )}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {!youtube && (
          <button type="button" className={button} onClick={capture} disabled={state.busy}>
            {text.posterCapture}
          </button>
        )}
        <label className={button}>
          {text.posterUpload}
          <input
            type="file"
            accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
            className="sr-only"
            disabled={state.busy}
            onChange={(event) => {
              const file = event.target.files?.[0];
              if (file) void save(file, file.name);
              event.target.value = "";
            }}
          />
        </label>
      </div>
      {state.message && (
        <p role="status" className={`text-sm ${state.failed ? "font-bold text-brand-700" : "text-stone-600"}`}>
          {state.message}
        </p>
      )}
    </fieldset>
  );
}
