import { describe, expect, it } from "vitest";
import { documentImages, storedBody, withoutTrailingEmptyParagraphs, type RichDocument } from "./document";

const image = "/media/news-images/0123456789abcdef-port.webp";
const document: RichDocument = {
  type: "doc",
  content: [
    { type: "figure", attrs: { src: image, alt: "", caption: "", credit: "" } },
    { type: "paragraph", content: [{ type: "text", text: "نص" }] },
    { type: "paragraph" },
    { type: "paragraph", content: [] },
  ],
};

describe("the body's helpers", () => {
  it("lists the images placed in the text", () => {
    expect(documentImages(document)).toEqual([image]);
  });

  it("drops the empty paragraphs at the end only", () => {
    expect(withoutTrailingEmptyParagraphs(document).content).toHaveLength(2);
    expect(
      withoutTrailingEmptyParagraphs({
        type: "doc",
        content: [{ type: "paragraph" }, { type: "paragraph", content: [{ type: "text", text: "x" }] }],
      }).content,
    ).toHaveLength(2);
  });

  it("reads a stored body, or the plain text of an article written before the editor, or of a body the allow-list refuses", () => {
    expect(storedBody(JSON.stringify(document), "غير مستعمل")).toEqual(document);
    expect(storedBody(null, "سطر\n\nسطر آخر").content).toHaveLength(2);
    expect(storedBody('{"type":"doc","content":[{"type":"script"}]}', "نص احتياطي")).toEqual({
      type: "doc",
      content: [{ type: "paragraph", content: [{ type: "text", text: "نص احتياطي" }] }],
    });
  });
});
