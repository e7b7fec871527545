import { describe, expect, it } from "vitest";
import { embedFromUrl, embedUrl } from "./embeds";

describe("embedFromUrl", () => {
  it("reads YouTube videos in their usual link shapes", () => {
    for (const link of [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10s",
      "https://youtu.be/dQw4w9WgXcQ",
      "https://m.youtube.com/shorts/dQw4w9WgXcQ",
      " https://www.youtube.com/embed/dQw4w9WgXcQ ",
    ]) {
      expect(embedFromUrl(link)).toEqual({ provider: "youtube", id: "dQw4w9WgXcQ" });
    }
  });

  it("reads X and Twitter posts", () => {
    expect(embedFromUrl("https://x.com/someone/status/1790000000000000000?s=20")).toEqual({
      provider: "x",
      id: "1790000000000000000",
    });
    expect(embedFromUrl("https://twitter.com/someone/status/123")).toEqual({ provider: "x", id: "123" });
  });

  it("refuses anything else", () => {
    for (const link of [
      "javascript:alert(1)",
      "https://evil.example/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com/watch?v=short",
      'https://youtu.be/dQw4w9WgXcQ"onerror=1',
      "https://x.com/someone",
      "https://x.com/someone/status/12ab",
      "not a link",
    ]) {
      expect(embedFromUrl(link)).toBeNull();
    }
  });

  it("links back to the post on its own site", () => {
    expect(embedUrl({ provider: "youtube", id: "dQw4w9WgXcQ" })).toBe("https://www.youtube.com/watch?v=dQw4w9WgXcQ");
    expect(embedUrl({ provider: "x", id: "123" })).toBe("https://x.com/i/status/123");
  });
});
