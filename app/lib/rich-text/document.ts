import { z } from "~/lib/zod";
import { isSafeHref } from "./hrefs";

/**
 * A rich text (an article's body, an information page) as a structured document: the JSON a
 * ProseMirror editor produces, limited to the nodes and marks below. It is never stored or sent as
 * HTML: `components/rich-text.tsx` renders it through this allow-list.
 */
export type LinkMark = { type: "link"; attrs: { href: string } };
export type TextMark = { type: "bold" } | { type: "italic" } | LinkMark;
export type TextNode = { type: "text"; text: string; marks?: TextMark[] };
export type HardBreakNode = { type: "hardBreak" };
export type InlineNode = TextNode | HardBreakNode;

export type ParagraphNode = { type: "paragraph"; content?: InlineNode[] };
export type HeadingNode = { type: "heading"; attrs: { level: HeadingLevel }; content?: InlineNode[] };
export type BlockquoteNode = { type: "blockquote"; content: TextBlockNode[] };
export type ListItemNode = { type: "listItem"; content: Array<TextBlockNode | ListNode> };
export type ListNode = { type: "bulletList" | "orderedList"; content: ListItemNode[] };
/** An image placed in the text: a stored image of our media (`/media/news-images/…`). */
export type FigureNode = { type: "figure"; attrs: { src: string; alt: string; caption: string; credit: string } };
/** A post of another site, shown as a card that loads the other site only when clicked. */
export type EmbedNode = { type: "embed"; attrs: { provider: EmbedProvider; id: string } };

export type TextBlockNode = ParagraphNode | HeadingNode;
export type BlockNode = TextBlockNode | BlockquoteNode | ListNode | FigureNode | EmbedNode;
export type RichDocument = { type: "doc"; content: BlockNode[] };

export const HEADING_LEVELS = [2, 3] as const;
export type HeadingLevel = (typeof HEADING_LEVELS)[number];
export const EMBED_PROVIDERS = ["youtube", "x"] as const;
export type EmbedProvider = (typeof EMBED_PROVIDERS)[number];

/** The longest document accepted, as JSON: far above a long article, far below a hostile one. */
export const MAX_DOCUMENT_JSON_LENGTH = 200_000;
const MAX_TEXT = 20_000;
const MAX_ATTRIBUTE = 500;
const MAX_LIST_DEPTH = 4;

export { isInternalHref, isSafeHref } from "./hrefs";

/** Images in the text are our own stored images, never another site's. */
export function isStoredImagePath(src: string): boolean {
  return /^\/media\/news-images\/[A-Za-z0-9._-]+$/.test(src) && !src.includes("..");
}

const EMBED_ID: Record<EmbedProvider, RegExp> = {
  youtube: /^[A-Za-z0-9_-]{11}$/,
  x: /^[0-9]{1,25}$/,
};

const attribute = z.string().max(MAX_ATTRIBUTE);
const linkMark = z.object({ type: z.literal("link"), attrs: z.object({ href: attribute.refine(isSafeHref) }) });
const textMark = z.union([z.object({ type: z.literal("bold") }), z.object({ type: z.literal("italic") }), linkMark]);
const textNode = z.object({
  type: z.literal("text"),
  text: z.string().min(1).max(MAX_TEXT),
  marks: z.array(textMark).max(3).optional(),
});
const inlineNode = z.union([textNode, z.object({ type: z.literal("hardBreak") })]);
const inlineContent = z.array(inlineNode).max(2_000).optional();

const paragraph = z.object({ type: z.literal("paragraph"), content: inlineContent });
const heading = z.object({
  type: z.literal("heading"),
  attrs: z.object({ level: z.union([z.literal(2), z.literal(3)]) }),
  content: inlineContent,
});
const textBlock = z.union([paragraph, heading]);

function listSchema(depth: number): z.ZodType<ListNode> {
  const itemContent = depth >= MAX_LIST_DEPTH ? textBlock : z.union([textBlock, z.lazy(() => listSchema(depth + 1))]);
  return z.object({
    type: z.enum(["bulletList", "orderedList"]),
    content: z
      .array(z.object({ type: z.literal("listItem"), content: z.array(itemContent).min(1).max(50) }))
      .min(1)
      .max(200),
  }) as z.ZodType<ListNode>;
}

const figure = z.object({
  type: z.literal("figure"),
  attrs: z.object({ src: attribute.refine(isStoredImagePath), alt: attribute, caption: attribute, credit: attribute }),
});
const embed = z
  .object({ type: z.literal("embed"), attrs: z.object({ provider: z.enum(EMBED_PROVIDERS), id: attribute }) })
  .refine((node) => EMBED_ID[node.attrs.provider].test(node.attrs.id));
const blockquote = z.object({ type: z.literal("blockquote"), content: z.array(textBlock).min(1).max(50) });
const block = z.union([paragraph, heading, blockquote, listSchema(1), figure, embed]);

/** Only the nodes, marks and attributes above; anything else (HTML, scripts, styles, other sites' images) is refused. */
export const richDocumentSchema: z.ZodType<RichDocument> = z.object({
  type: z.literal("doc"),
  content: z.array(block).max(2_000),
}) as z.ZodType<RichDocument>;

/** The document a form field carries as JSON; else "nul" when a text in it holds a NUL (its own message), or "invalid". */
export function readRichDocument(json: string): RichDocument | "invalid" | "nul" {
  if (json.length > MAX_DOCUMENT_JSON_LENGTH) return "invalid";
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return "invalid";
  }
  const result = richDocumentSchema.safeParse(value);
  if (result.success) return result.data;
  return z.refusedNul(result.error) ? "nul" : "invalid";
}

/** The document a form field carries as JSON, or null when it is not one we accept. */
export function parseRichDocument(json: string): RichDocument | null {
  const document = readRichDocument(json);
  return typeof document === "string" ? null : document;
}

/** Plain text as one paragraph per line: how articles written before the editor, and imported ones, read. */
export function documentFromPlainText(text: string): RichDocument {
  const content: BlockNode[] = text
    .split(/\n+/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .map((line) => ({ type: "paragraph", content: [{ type: "text", text: line }] }));
  return { type: "doc", content };
}

function inlineText(nodes: InlineNode[] | undefined): string {
  return (nodes ?? []).map((node) => (node.type === "text" ? node.text : "\n")).join("");
}

function blockLines(node: BlockNode | ListItemNode): string[] {
  switch (node.type) {
    case "paragraph":
    case "heading":
      return [inlineText(node.content)];
    case "blockquote":
    case "listItem":
      return node.content.flatMap(blockLines);
    case "bulletList":
    case "orderedList":
      return node.content.flatMap(blockLines);
    case "figure":
      return [node.attrs.caption];
    case "embed":
      return [];
  }
}

/** What search, snippets, share text, the news sitemap and JSON-LD read: each block's text on a line of its own. */
export function documentPlainText(document: RichDocument): string {
  return document.content
    .flatMap(blockLines)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .join("\n");
}

export function isEmptyDocument(document: RichDocument): boolean {
  return document.content.every(
    (node) => node.type !== "figure" && node.type !== "embed" && blockLines(node).every((line) => line.trim() === ""),
  );
}

/** The stored images a document places in its text, for the media every article keeps. */
export function documentImages(document: RichDocument): string[] {
  const images: string[] = [];
  const visit = (node: BlockNode | ListItemNode) => {
    if (node.type === "figure") images.push(node.attrs.src);
    else if (
      node.type === "blockquote" ||
      node.type === "listItem" ||
      node.type === "bulletList" ||
      node.type === "orderedList"
    )
      node.content.forEach(visit);
  };
  document.content.forEach(visit);
  return images;
}

/** The document without the figures of `removed` (images deleted from the library since it was written). */
export function withoutFigures(document: RichDocument, removed: ReadonlySet<string>): RichDocument {
  return {
    ...document,
    content: document.content.filter((node) => node.type !== "figure" || !removed.has(node.attrs.src)),
  };
}

/**
 * An article's body as stored: its document, or (written before the editor, `body` NULL) its plain
 * text as paragraphs. A stored body the allow-list refuses also reads as its plain text.
 */
export function storedBody(body: string | null, content: string): RichDocument {
  return (body && parseRichDocument(body)) || documentFromPlainText(content);
}

/** The document without the empty paragraphs at its end (the editor keeps one there to type into). */
export function withoutTrailingEmptyParagraphs(document: RichDocument): RichDocument {
  const content = [...document.content];
  while (content.length > 0) {
    const last = content[content.length - 1]!;
    if (last.type !== "paragraph" || (last.content ?? []).length > 0) break;
    content.pop();
  }
  return { ...document, content };
}
