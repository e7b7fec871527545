import { NodeViewWrapper, type ReactNodeViewProps } from "@tiptap/react";
import { messages } from "~/lib/messages";
import { editorMessages } from "~/lib/newsroom-messages";
import type { EmbedAttrs } from "~/lib/rich-text/embeds";
import { embedUrl } from "~/lib/rich-text/embeds";
import { NewsImage } from "../news-image";

const field = "w-full rounded border border-stone-300 bg-white px-2 py-1 text-sm";

/** An image in the text: the image, and its description, caption and credit as fields of their own. */
export function FigureView({ node, updateAttributes, selected }: ReactNodeViewProps) {
  const attrs = node.attrs as { src: string; alt: string; caption: string; credit: string };
  const input = (name: "alt" | "caption" | "credit", label: string) => (
    <label className="flex flex-col gap-1 text-sm">
      <span className="font-bold">{label}</span>
      <input
        className={field}
        value={attrs[name]}
        maxLength={500}
        onChange={(event) => updateAttributes({ [name]: event.target.value })}
        data-figure-field={name}
      />
    </label>
  );
  return (
    <NodeViewWrapper as="figure" className={`editor-figure ${selected ? "is-selected" : ""}`} data-drag-handle="">
      <NewsImage url={attrs.src} alt={attrs.alt} sizes="(min-width: 1024px) 768px, 100vw" />
      <div className="mt-2 grid gap-2 sm:grid-cols-3" contentEditable={false}>
        {input("caption", editorMessages.imageCaption)}
        {input("credit", editorMessages.imageCreditField)}
        {input("alt", editorMessages.imageAlt)}
      </div>
    </NodeViewWrapper>
  );
}

/** A YouTube video or an X post: a card naming it, as readers see it. */
export function EmbedView({ node, selected }: ReactNodeViewProps) {
  const attrs = node.attrs as EmbedAttrs;
  return (
    <NodeViewWrapper
      className={`embed-card ${selected ? "is-selected" : ""}`}
      data-embed={attrs.provider}
      data-drag-handle=""
    >
      <span className="font-bold">{attrs.provider === "youtube" ? messages.embedYoutube : messages.embedX}</span>{" "}
      <bdi dir="ltr" className="text-sm text-stone-500">
        {embedUrl(attrs)}
      </bdi>
    </NodeViewWrapper>
  );
}
