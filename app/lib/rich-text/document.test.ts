import { describe, expect, it } from "vitest";
import {
  documentFromPlainText,
  documentPlainText,
  isEmptyDocument,
  isSafeHref,
  parseRichDocument,
  type RichDocument,
} from "./document";

const sample: RichDocument = {
  type: "doc",
  content: [
    { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "عنوان" }] },
    {
      type: "paragraph",
      content: [
        { type: "text", text: "نص ", marks: [{ type: "bold" }] },
        { type: "text", text: "رابط", marks: [{ type: "link", attrs: { href: "https://example.com/a" } }] },
      ],
    },
    {
      type: "bulletList",
      content: [{ type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "بند" }] }] }],
    },
    { type: "figure", attrs: { src: "/media/news-images/abc-1.webp", alt: "صورة", caption: "تعليق", credit: "مصور" } },
    { type: "embed", attrs: { provider: "youtube", id: "dQw4w9WgXcQ" } },
  ],
};

describe("rich documents", () => {
  it("accept the allowed nodes and give their plain text a line per block", () => {
    expect(parseRichDocument(JSON.stringify(sample))).toEqual(sample);
    expect(documentPlainText(sample)).toBe("عنوان\nنص رابط\nبند\nتعليق");
  });

  it.each([
    ["not JSON", "<p>x</p>"],
    ["an unknown node", JSON.stringify({ type: "doc", content: [{ type: "html", text: "<script>" }] })],
    [
      "an attribute smuggled on a paragraph is dropped, a javascript: link refused",
      JSON.stringify({
        type: "doc",
        content: [
          {
            type: "paragraph",
            content: [{ type: "text", text: "x", marks: [{ type: "link", attrs: { href: "javascript:alert(1)" } }] }],
          },
        ],
      }),
    ],
    [
      "another site's image",
      JSON.stringify({
        type: "doc",
        content: [{ type: "figure", attrs: { src: "https://evil.example/x.png", alt: "", caption: "", credit: "" } }],
      }),
    ],
    [
      "a path out of the media folder",
      JSON.stringify({
        type: "doc",
        content: [{ type: "figure", attrs: { src: "/media/news-images/../../etc", alt: "", caption: "", credit: "" } }],
      }),
    ],
    [
      "an embed that is not a video id",
      JSON.stringify({ type: "doc", content: [{ type: "embed", attrs: { provider: "youtube", id: '"><script>' } }] }),
    ],
    [
      "a heading level 1",
      JSON.stringify({ type: "doc", content: [{ type: "heading", attrs: { level: 1 }, content: [] }] }),
    ],
  ])("refuse %s", (_name, json) => {
    expect(parseRichDocument(json)).toBeNull();
  });

  it("drops what the allow-list does not name", () => {
    const parsed = parseRichDocument(
      JSON.stringify({
        type: "doc",
        content: [
          {
            type: "paragraph",
            attrs: { style: "color:red" },
            content: [{ type: "text", text: "x", onclick: "alert(1)" }],
          },
        ],
      }),
    );
    expect(parsed).toEqual({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text: "x" }] }] });
  });

  it("refuses lists nested past the limit", () => {
    let list: unknown = { type: "paragraph", content: [{ type: "text", text: "x" }] };
    for (let depth = 0; depth < 6; depth++)
      list = { type: "bulletList", content: [{ type: "listItem", content: [list] }] };
    expect(parseRichDocument(JSON.stringify({ type: "doc", content: [list] }))).toBeNull();
  });

  it("reads plain text as paragraphs and back", () => {
    const document = documentFromPlainText("سطر أول\n\n  سطر ثانٍ  \n");
    expect(document.content).toHaveLength(2);
    expect(documentPlainText(document)).toBe("سطر أول\nسطر ثانٍ");
    expect(isEmptyDocument(documentFromPlainText(" \n "))).toBe(true);
  });

  it("allows links to the web, mail and this site only", () => {
    expect(["https://a.b/", "http://a.b", "mailto:x@y.z", "/news/1"].every(isSafeHref)).toBe(true);
    expect(["javascript:alert(1)", "//evil.example", "data:text/html,x", "vbscript:x", " /x"].some(isSafeHref)).toBe(
      false,
    );
  });
});
