import { describe, expect, it } from "vitest";
import { authorProfileSchema, BIO_MAX, parseLinks } from "./author-profile";
import { storyMessages } from "./newsroom-messages";

const message = (fields: Record<string, string>) => authorProfileSchema.safeParse(fields).error?.issues[0]?.message;

describe("an author's profile", () => {
  it("takes a bio up to its limit and http/https links one a line", () => {
    const parsed = authorProfileSchema.parse({
      bio: "  صحافية   من طرابلس ",
      links: "https://x.com/someone\r\n\nhttp://example.org/me",
    });
    expect(parsed).toEqual({
      bio: "صحافية من طرابلس",
      links: ["https://x.com/someone", "http://example.org/me"],
      removePhoto: false,
    });
    expect(message({ bio: "أ".repeat(BIO_MAX + 1) })).toBe(storyMessages.bioTooLong);
  });

  it("refuses javascript: and other schemes, overlong links and more than five", () => {
    expect(message({ links: "javascript:alert(1)" })).toBe(storyMessages.linkInvalid);
    expect(message({ links: "data:text/html,hi" })).toBe(storyMessages.linkInvalid);
    expect(message({ links: `https://example.org/${"a".repeat(600)}` })).toBe(storyMessages.linkInvalid);
    expect(message({ links: Array.from({ length: 6 }, (_, i) => `https://example.org/${i}`).join("\n") })).toBe(
      storyMessages.tooManyLinks,
    );
  });

  it("reads stored links back, leaving out anything that is not a web address", () => {
    expect(parseLinks('["https://a.example", "javascript:x", 3]')).toEqual(["https://a.example"]);
    expect(parseLinks("not json")).toEqual([]);
    expect(parseLinks(null)).toEqual([]);
  });
});
