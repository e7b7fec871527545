import { Extension, Node, mergeAttributes, type Extensions } from "@tiptap/core";
import Blockquote from "@tiptap/extension-blockquote";
import Heading from "@tiptap/extension-heading";
import { ListItem } from "@tiptap/extension-list";
import { Plugin } from "@tiptap/pm/state";
import { ReactNodeViewRenderer } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { isSafeHref, isStoredImagePath } from "~/lib/rich-text/document";
import { embedFromUrl } from "~/lib/rich-text/embeds";
import { EmbedView, FigureView } from "./node-views";

/*
 * The editor's schema is the document model's (lib/rich-text/document.ts), node for node: what a paste
 * brings that it does not name (styles, classes, spans, fonts, other sites' images, tables) is dropped
 * as ProseMirror parses it, and what it names is shaped as the server's allow-list accepts it.
 */

/** Headings 2 and 3 only: a pasted h1 becomes a 2, an h4 to h6 a 3. */
const ArticleHeading = Heading.extend({
  parseHTML() {
    return [
      { tag: "h1", attrs: { level: 2 } },
      { tag: "h2", attrs: { level: 2 } },
      { tag: "h3", attrs: { level: 3 } },
      { tag: "h4", attrs: { level: 3 } },
      { tag: "h5", attrs: { level: 3 } },
      { tag: "h6", attrs: { level: 3 } },
    ];
  },
}).configure({ levels: [2, 3] });

/** A quote holds paragraphs and headings, as the allow-list says. */
const ArticleBlockquote = Blockquote.extend({ content: "(paragraph | heading)+" });

/** A list item holds text and lists, never an image or a quote. */
const ArticleListItem = ListItem.extend({ content: "paragraph (paragraph | heading | bulletList | orderedList)*" });

const text = (element: HTMLElement, selector: string) => element.querySelector(selector)?.textContent?.trim() ?? "";

/** An image of ours placed in the text, with its description, caption and credit (edited in its node view). */
export const Figure = Node.create({
  name: "figure",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return {
      src: { default: "", parseHTML: (element) => element.querySelector("img")?.getAttribute("src") ?? "" },
      alt: { default: "", parseHTML: (element) => element.querySelector("img")?.getAttribute("alt") ?? "" },
      caption: {
        default: "",
        parseHTML: (element) => text(element, "figcaption [data-caption]") || text(element, "figcaption"),
      },
      credit: { default: "", parseHTML: (element) => text(element, "figcaption [data-credit]") },
    };
  },
  parseHTML() {
    // Only our own stored images: another site's figure is dropped with its image.
    return [
      {
        tag: "figure",
        getAttrs: (element) =>
          isStoredImagePath(element.querySelector("img")?.getAttribute("src") ?? "") ? null : false,
      },
    ];
  },
  renderHTML({ node }) {
    const { src, alt, caption, credit } = node.attrs as Record<string, string>;
    return [
      "figure",
      ["img", { src, alt }],
      ["figcaption", ["span", { "data-caption": "" }, caption], ["span", { "data-credit": "" }, credit]],
    ];
  },
  addNodeView() {
    return ReactNodeViewRenderer(FigureView);
  },
});

/** A YouTube video or an X post by its id, shown as a card. */
export const Embed = Node.create({
  name: "embed",
  group: "block",
  atom: true,
  draggable: true,
  selectable: true,
  addAttributes() {
    return {
      provider: {
        default: "youtube",
        parseHTML: (element) => embedFromUrl(element.querySelector("a")?.getAttribute("href") ?? "")?.provider ?? null,
      },
      id: {
        default: "",
        parseHTML: (element) => embedFromUrl(element.querySelector("a")?.getAttribute("href") ?? "")?.id ?? null,
      },
    };
  },
  parseHTML() {
    return [
      {
        tag: "[data-embed]",
        getAttrs: (element) => (embedFromUrl(element.querySelector("a")?.getAttribute("href") ?? "") ? null : false),
      },
    ];
  },
  renderHTML({ HTMLAttributes }) {
    return ["div", mergeAttributes({ "data-embed": HTMLAttributes.provider })];
  },
  addNodeView() {
    return ReactNodeViewRenderer(EmbedView);
  },
});

/** A YouTube or X link pasted on its own becomes an embed; any other paste goes on as usual. */
const EmbedOnPaste = Extension.create({
  name: "embedOnPaste",
  addProseMirrorPlugins() {
    const editor = this.editor;
    return [
      new Plugin({
        props: {
          handlePaste: (_view, event) => {
            const attrs = embedFromUrl(event.clipboardData?.getData("text/plain") ?? "");
            if (!attrs) return false;
            // In an empty paragraph, the embed takes its place; a paragraph after it takes the writing on.
            return editor.commands.insertContent([{ type: "embed", attrs }, { type: "paragraph" }]);
          },
        },
      }),
    ];
  },
});

/** `onLinkShortcut`: what Mod-K opens (the link dialog). */
export function articleExtensions({ onLinkShortcut }: { onLinkShortcut: () => void }): Extensions {
  return [
    StarterKit.configure({
      heading: false,
      blockquote: false,
      listItem: false,
      code: false,
      codeBlock: false,
      horizontalRule: false,
      strike: false,
      underline: false,
      link: {
        openOnClick: false,
        autolink: true,
        linkOnPaste: true,
        isAllowedUri: (url) => isSafeHref(url),
        HTMLAttributes: { rel: "noopener noreferrer nofollow", target: null },
      },
    }),
    ArticleHeading,
    ArticleBlockquote,
    ArticleListItem,
    Figure,
    Embed,
    EmbedOnPaste,
    Extension.create({
      name: "linkShortcut",
      addKeyboardShortcuts() {
        return {
          "Mod-k": () => {
            onLinkShortcut();
            return true;
          },
        };
      },
    }),
  ];
}
