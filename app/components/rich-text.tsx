import type { ReactNode } from "react";
import { messages } from "~/lib/messages";
import { ImageCaption } from "./image-caption";
import { isInternalHref, isSafeHref } from "~/lib/rich-text/hrefs";
import type {
  BlockNode,
  EmbedNode,
  FigureNode,
  InlineNode,
  ListItemNode,
  RichDocument,
  TextNode,
} from "~/lib/rich-text/document";
import { embedUrl } from "~/lib/rich-text/embeds";
import { NewsImage } from "./news-image";

/**
 * A rich document as HTML, node by node through the allow-list of `lib/rich-text/document.ts`: text
 * is always text (React escapes it), links only to safe addresses, images only our own stored ones,
 * other sites' posts only as a link until the reader asks for more. Nothing in a document becomes markup
 * it did not name.
 */
export function RichText({ document }: { document: RichDocument }) {
  return <>{document.content.map((node, index) => renderBlock(node, index))}</>;
}

function renderBlock(node: BlockNode | ListItemNode, key: number): ReactNode {
  switch (node.type) {
    case "paragraph":
      return <p key={key}>{renderInline(node.content)}</p>;
    case "heading":
      return node.attrs.level === 2 ? (
        <h2 key={key}>{renderInline(node.content)}</h2>
      ) : (
        <h3 key={key}>{renderInline(node.content)}</h3>
      );
    case "blockquote":
      return <blockquote key={key}>{node.content.map(renderBlock)}</blockquote>;
    case "bulletList":
      return <ul key={key}>{node.content.map(renderBlock)}</ul>;
    case "orderedList":
      return <ol key={key}>{node.content.map(renderBlock)}</ol>;
    case "listItem":
      return <li key={key}>{node.content.map(renderBlock)}</li>;
    case "figure":
      return <Figure key={key} node={node} />;
    case "embed":
      return <Embed key={key} node={node} />;
  }
}

function renderInline(nodes: InlineNode[] | undefined): ReactNode {
  return (nodes ?? []).map((node, index) =>
    node.type === "hardBreak" ? <br key={index} /> : <Text key={index} node={node} />,
  );
}

function Text({ node }: { node: TextNode }) {
  let element: ReactNode = node.text;
  for (const mark of node.marks ?? []) {
    if (mark.type === "bold") element = <strong>{element}</strong>;
    else if (mark.type === "italic") element = <em>{element}</em>;
    else if (isSafeHref(mark.attrs.href)) {
      const external = !isInternalHref(mark.attrs.href);
      element = (
        <a href={mark.attrs.href} rel={external ? "noopener noreferrer nofollow ugc" : undefined}>
          {element}
        </a>
      );
    }
  }
  return <>{element}</>;
}

function Figure({ node }: { node: FigureNode }) {
  const { src, alt, caption, credit } = node.attrs;
  return (
    <figure>
      <NewsImage url={src} alt={alt} sizes="(min-width: 1024px) 768px, 100vw" />
      <ImageCaption caption={caption} credit={credit} />
    </figure>
  );
}

function Embed({ node }: { node: EmbedNode }) {
  return (
    <p className="embed-card" data-embed={node.attrs.provider}>
      <a href={embedUrl(node.attrs)} rel="noopener noreferrer nofollow">
        {node.attrs.provider === "youtube" ? messages.embedYoutube : messages.embedX}
      </a>
    </p>
  );
}
