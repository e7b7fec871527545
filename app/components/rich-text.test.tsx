import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { parseRichDocument } from "~/lib/rich-text/document";
import { RichText } from "./rich-text";

function html(json: unknown): string {
  const document = parseRichDocument(JSON.stringify(json));
  if (!document) throw new Error("refused");
  return renderToStaticMarkup(<RichText document={document} />);
}

describe("RichText", () => {
  it("renders each allowed node as its element", () => {
    const markup = html({
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 3 }, content: [{ type: "text", text: "ع" }] },
        {
          type: "orderedList",
          content: [
            {
              type: "listItem",
              content: [
                {
                  type: "paragraph",
                  content: [{ type: "text", text: "ب", marks: [{ type: "italic" }, { type: "bold" }] }],
                },
              ],
            },
          ],
        },
        { type: "blockquote", content: [{ type: "paragraph", content: [{ type: "text", text: "ق" }] }] },
        { type: "figure", attrs: { src: "/media/news-images/a.webp", alt: "بديل", caption: "تعليق", credit: "مصور" } },
      ],
    });
    expect(markup).toContain("<h3>ع</h3>");
    expect(markup).toContain("<ol><li><p><strong><em>ب</em></strong></p></li></ol>");
    expect(markup).toContain("<blockquote><p>ق</p></blockquote>");
    expect(markup).toMatch(/<figure><img src="\/media\/news-images\/a-800w.webp"[^>]*alt="بديل"/);
    expect(markup).toContain('<figcaption>تعليق<span class="credit">تصوير: مصور</span></figcaption>');
  });

  it("keeps hostile text as text, and external links from passing on trust", () => {
    const markup = html({
      type: "doc",
      content: [
        {
          type: "paragraph",
          content: [
            {
              type: "text",
              text: "<script>alert(1)</script>",
              marks: [{ type: "link", attrs: { href: 'https://example.com/?q="><x' } }],
            },
          ],
        },
      ],
    });
    expect(markup).not.toContain("<script>");
    expect(markup).toContain("&lt;script&gt;");
    expect(markup).toContain('rel="noopener noreferrer nofollow ugc"');
    expect(markup).toContain('href="https://example.com/?q=&quot;&gt;&lt;x"');
  });

  it("shows other sites' posts as a link, loading nothing of theirs", () => {
    const markup = html({ type: "doc", content: [{ type: "embed", attrs: { provider: "x", id: "123" } }] });
    expect(markup).toContain('href="https://x.com/i/status/123"');
    expect(markup).not.toContain("<iframe");
  });
});
