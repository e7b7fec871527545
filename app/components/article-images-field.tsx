import { useLayoutEffect, useRef, useState } from "react";
import { IMAGE_DETAIL_MAX, detailsOf, type ImageDetails, type ImageDetailsMap } from "~/lib/image-details";
import { imageDetailMessages as text, mediaLibraryMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { MediaPicker } from "./media-picker";
import { NewsImage } from "./news-image";

type Item = ImageDetails & { url: string };
type Move = "cover" | "up" | "down";

const detailInput = "w-full rounded border border-stone-300 bg-white px-2 py-1 text-sm";
const moveButton =
  "rounded border border-stone-300 bg-white px-2 py-1 text-sm font-bold hover:bg-stone-100 disabled:opacity-40";

function moved(items: Item[], index: number, move: Move): Item[] {
  const to = move === "cover" ? 0 : move === "up" ? index - 1 : index + 1;
  if (to < 0 || to >= items.length || to === index) return items;
  const next = [...items];
  const [item] = next.splice(index, 1);
  next.splice(to, 0, item!);
  return next;
}

/**
 * The article's images on its form (decision 025): in the order readers see them, the first the cover;
 * buttons move one (no dragging), and each has its alt text, caption and credit. The order and the
 * details post as lists in the same order (`imageOrder`, `imageAlt`, `imageCaption`, `imageCredit`).
 * The text fields are uncontrolled: a moved row carries its inputs, and what was typed before the
 * form hydrated stays. An image picked from the media library joins the list as the cover or last,
 * with the library's alt, caption and credit as its details.
 */
export function ArticleImagesField({
  images,
  details,
  error,
}: {
  images: string[];
  details: ImageDetailsMap;
  error?: string;
}) {
  const [items, setItems] = useState<Item[]>(() => images.map((url) => ({ url, ...detailsOf(details, url) })));
  const [announcement, setAnnouncement] = useState("");
  const focusAfterMove = useRef<{ url: string; move: Move } | null>(null);
  const list = useRef<HTMLOListElement>(null);

  // Before the browser paints or takes the next input, so a key pressed right after a move lands on the moved image.
  useLayoutEffect(() => {
    const pending = focusAfterMove.current;
    if (!pending) return;
    focusAfterMove.current = null;
    const row = list.current?.querySelector<HTMLElement>(`[data-image="${CSS.escape(pending.url)}"]`);
    const button =
      row?.querySelector<HTMLButtonElement>(`[data-move="${pending.move}"]:not(:disabled)`) ??
      row?.querySelector<HTMLButtonElement>("[data-move]:not(:disabled)");
    button?.focus();
  }, [items]);

  function move(index: number, how: Move) {
    const next = moved(items, index, how);
    if (next === items) return;
    const url = items[index]!.url;
    focusAfterMove.current = { url, move: how };
    setItems(next);
    setAnnouncement(`${text.moved} ${(next.findIndex((item) => item.url === url) + 1).toLocaleString("ar-LB")}`);
  }

  function pick(image: Item, as: "cover" | "gallery") {
    const others = items.filter((item) => item.url !== image.url);
    const known = items.find((item) => item.url === image.url) ?? image;
    setItems(as === "cover" ? [known, ...others] : [...others, known]);
    setAnnouncement(mediaLibraryMessages.picked);
  }
  const fromLibrary = (as: "cover" | "gallery") => (image: ImageDetails & { url: string }) =>
    pick({ url: image.url, alt: image.alt, caption: image.caption, credit: image.credit }, as);

  return (
    <fieldset aria-describedby={error ? "imageDetails-error" : "imageDetails-hint"} data-testid="article-images-field">
      <legend className="mb-1 font-bold">{text.legend}</legend>
      <p id="imageDetails-hint" className="mb-2 text-sm text-stone-500">
        {text.hint}
      </p>
      <ol ref={list} className="space-y-3">
        {items.map((item, index) => {
          const id = `image-${index}`;
          const position = `${text.imageNumber} ${(index + 1).toLocaleString("ar-LB")}`;
          return (
            <li
              key={item.url}
              data-image={item.url}
              className="grid gap-3 rounded border border-stone-200 bg-stone-50 p-3 sm:grid-cols-[12rem_1fr]"
              aria-label={position}
            >
              <input type="hidden" name="imageOrder" value={item.url} />
              <div className="space-y-2">
                <NewsImage url={item.url} alt="" sizes="200px" className="aspect-video w-full rounded object-cover" />
                <p className="text-sm font-bold">
                  {position}
                  {index === 0 && <span className="badge ms-2">{text.cover}</span>}
                </p>
                <div className="flex flex-wrap gap-2" role="group" aria-label={position}>
                  <button
                    type="button"
                    data-move="cover"
                    className={moveButton}
                    disabled={index === 0}
                    onClick={() => move(index, "cover")}
                  >
                    {text.makeCover}
                  </button>
                  <button
                    type="button"
                    data-move="up"
                    className={moveButton}
                    disabled={index === 0}
                    onClick={() => move(index, "up")}
                    aria-label={`${text.moveUp}: ${position}`}
                  >
                    {text.moveUp}
                  </button>
                  <button
                    type="button"
                    data-move="down"
                    className={moveButton}
                    disabled={index === items.length - 1}
                    onClick={() => move(index, "down")}
                    aria-label={`${text.moveDown}: ${position}`}
                  >
                    {text.moveDown}
                  </button>
                </div>
                {images.includes(item.url) ? (
                  <label className="flex items-center gap-2 text-sm">
                    <input type="checkbox" name="removeImages" value={item.url} />
                    {newsroomMessages.removeImage}
                  </label>
                ) : (
                  <button
                    type="button"
                    className={moveButton}
                    onClick={() => setItems(items.filter((other) => other.url !== item.url))}
                  >
                    {newsroomMessages.removeImage}
                  </button>
                )}
              </div>
              <div className="space-y-2">
                {(["alt", "caption", "credit"] as const).map((field) => (
                  <div key={field}>
                    <label htmlFor={`${id}-${field}`} className="mb-0.5 block text-sm font-bold">
                      {text[field]}
                    </label>
                    <input
                      id={`${id}-${field}`}
                      name={`image${field[0]!.toUpperCase()}${field.slice(1)}`}
                      defaultValue={item[field]}
                      maxLength={IMAGE_DETAIL_MAX}
                      className={detailInput}
                    />
                  </div>
                ))}
              </div>
            </li>
          );
        })}
      </ol>
      <div className="mt-3">
        <MediaPicker
          actions={[
            { label: mediaLibraryMessages.makeCover, pick: fromLibrary("cover") },
            { label: mediaLibraryMessages.addToGallery, pick: fromLibrary("gallery") },
          ]}
        />
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      {error && (
        <p id="imageDetails-error" className="mt-1 text-sm font-bold text-brand-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}
