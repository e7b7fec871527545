import { describe, expect, it } from "vitest";
import { messages } from "./messages";
import { readRichDocument } from "./rich-text/document";
import { z } from "./zod";

describe("z.string() refuses a NUL (U+0000)", () => {
  it("before any other check of the field, with the Arabic message at the field's path", () => {
    const schema = z.object({ title: z.string().trim().min(1).max(3) });
    const result = schema.safeParse({ title: " a\u0000bcdef " });
    expect(result.error?.issues).toEqual([{ code: "custom", path: ["title"], message: messages.textHasNul }]);
    expect(schema.parse({ title: " ab " })).toEqual({ title: "ab" });
  });

  it("in a text of a rich document, which is then refused for its NUL", () => {
    const doc = (text: string) =>
      JSON.stringify({ type: "doc", content: [{ type: "paragraph", content: [{ type: "text", text }] }] });
    expect(readRichDocument(doc("نص\u0000"))).toBe("nul");
    expect(readRichDocument(doc(""))).toBe("invalid");
    expect(readRichDocument(doc("نص"))).toEqual(JSON.parse(doc("نص")));
  });
});
