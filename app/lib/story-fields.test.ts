import { describe, expect, it } from "vitest";
import { articleFields } from "./article-schema";
import { storyMessages } from "./newsroom-messages";
import { articlePath, wirePath } from "./news";
import { editedSlug, SLUG_MAX, slugOf, STANDFIRST_MAX, summaryText } from "./story-fields";

describe("an article's slug", () => {
  it("keeps Arabic as Arabic, drops tashkeel, tatweel and punctuation, joins words with hyphens", () => {
    expect(slugOf("افتتاحُ معرضِ الكتاب، في طرابلس!")).toBe("افتتاح-معرض-الكتاب-في-طرابلس");
    expect(slugOf("عـــاجل: 3 إصابات «خطيرة» في حادث سير")).toBe("عاجل-3-إصابات-خطيرة-في-حادث-سير");
    expect(slugOf("Tripoli's Book Fair 2026")).toBe("tripoli-s-book-fair-2026");
  });

  it("is cut at a whole word within the limit, and is null when the title has no letter or digit", () => {
    const long = slugOf("كلمة ".repeat(60))!;
    expect(long.length).toBeLessThanOrEqual(SLUG_MAX);
    expect(long.endsWith("-")).toBe(false);
    expect(long.split("-").every((word) => word === "كلمة")).toBe(true);
    expect(slugOf("؟!… —")).toBeNull();
    expect(slugOf("ا".repeat(200))).toHaveLength(SLUG_MAX);
  });

  it("never takes a segment the address already uses (/news/{id}/delete)", () => {
    expect(slugOf("Delete")).toBe("delete-1");
  });

  it("as an editor types it: made a slug the same way, refused rather than cut when too long", () => {
    expect(editedSlug(" معرض  الكتاب ")).toBe("معرض-الكتاب");
    expect(editedSlug("أ".repeat(SLUG_MAX + 1))).toBe("too-long");
    expect(editedSlug("   ")).toBeNull();
  });

  it("reads as Arabic in the article's address, and is percent-encoded on the wire", () => {
    expect(articlePath("abc", "معرض-الكتاب")).toBe("/news/abc/معرض-الكتاب");
    expect(wirePath(articlePath("abc", "معرض-الكتاب"))).toBe(`/news/abc/${encodeURIComponent("معرض-الكتاب")}`);
    expect(wirePath("/news/a%2Fb/x?updated=1")).toBe("/news/a%2Fb/x?updated=1");
    expect(articlePath("abc", null)).toBe("/news/abc");
  });
});

describe("the standfirst", () => {
  const parse = (fields: Record<string, string>) =>
    articleFields.pick({ standfirst: true, slug: true, shareTitle: true }).safeParse(fields);

  it("is folded and kept up to its limit, refused past it", () => {
    expect(parse({ standfirst: "  موجز   الخبر \n هنا " }).data?.standfirst).toBe("موجز الخبر هنا");
    expect(parse({ standfirst: "أ".repeat(STANDFIRST_MAX) }).success).toBe(true);
    const refused = parse({ standfirst: "أ".repeat(STANDFIRST_MAX + 1) });
    expect(refused.error?.issues[0]?.message).toBe(storyMessages.standfirstTooLong);
    expect(parse({ standfirst: "\u200f \u200e" }).data?.standfirst).toBeNull();
  });

  it("is what a summary says when set, else the start of the text", () => {
    expect(summaryText({ standfirst: "الموجز", content: "النص الكامل" }, 4)).toBe("الموجز");
    expect(summaryText({ standfirst: null, content: "النص  الكامل" }, 8)).toBe("النص الك");
  });

  it("an overlong slug is refused with its message", () => {
    expect(parse({ slug: "ب".repeat(SLUG_MAX + 5) }).error?.issues[0]?.message).toBe(storyMessages.slugTooLong);
  });
});
