import { messages } from "~/lib/messages";

/** An image's caption and credit under it, as a figure's figcaption: nothing when it has neither. */
export function ImageCaption({ caption, credit }: { caption: string; credit: string }) {
  if (!caption && !credit) return null;
  return (
    <figcaption>
      {caption}
      {credit ? (
        <span className="credit">
          {messages.imageCredit} {credit}
        </span>
      ) : null}
    </figcaption>
  );
}
