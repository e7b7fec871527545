import { describe, expect, it } from "vitest";
import { articleSchema } from "./article-schema";
import { imageDetailMessages } from "./newsroom-messages";
import { parseImageDetails, storedImageDetails } from "./image-details";

const base = { title: "عنوان", content: "نص", category: "local", status: "draft" };

describe("image details", () => {
  it("pairs each image of the order with its alt, caption and credit, spaces folded", () => {
    const parsed = articleSchema.parse({
      ...base,
      imageOrder: ["/media/news-images/b.webp", "/media/news-images/a.webp"],
      imageAlt: ["  وصف\nالصورة ", ""],
      imageCaption: ["تعليق", ""],
      imageCredit: ["", "وكالة"],
    });
    expect(parsed.imageOrder).toEqual(["/media/news-images/b.webp", "/media/news-images/a.webp"]);
    expect(parsed.imageDetails).toEqual({
      "/media/news-images/b.webp": { alt: "وصف الصورة", caption: "تعليق", credit: "" },
      "/media/news-images/a.webp": { alt: "", caption: "", credit: "وكالة" },
    });
  });

  it("no order: the article keeps its own; details without an order, lists of other lengths and repeated images are refused", () => {
    expect(articleSchema.parse(base)).toMatchObject({ imageOrder: null, imageDetails: null });
    for (const fields of [
      { imageAlt: ["وصف"] },
      { imageOrder: ["/a"], imageAlt: [], imageCaption: [""], imageCredit: [""] },
      { imageOrder: ["/a", "/a"], imageAlt: ["", ""], imageCaption: ["", ""], imageCredit: ["", ""] },
    ]) {
      const result = articleSchema.safeParse({ ...base, ...fields });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe(imageDetailMessages.mismatch);
    }
    const long = articleSchema.safeParse({
      ...base,
      imageOrder: ["/a"],
      imageAlt: [""],
      imageCaption: ["ت".repeat(301)],
      imageCredit: [""],
    });
    expect(long.error?.issues[0]?.message).toBe(imageDetailMessages.captionTooLong);
  });

  it("stores only the details of the article's images that say something, and reads back anything unreadable as none", () => {
    const details = {
      "/a": { alt: "و", caption: "", credit: "" },
      "/b": { alt: "", caption: "", credit: "" },
      "/gone": { alt: "x", caption: "", credit: "" },
    };
    const stored = storedImageDetails(details, ["/a", "/b"]);
    expect(stored && JSON.parse(stored)).toEqual({ "/a": { alt: "و", caption: "", credit: "" } });
    expect(storedImageDetails(details, ["/b"])).toBeNull();
    expect(storedImageDetails(details, ["toString", "__proto__"])).toBeNull();
    expect(parseImageDetails(stored)).toEqual({ "/a": { alt: "و", caption: "", credit: "" } });
    for (const junk of [null, "", "not json", "[]", "3", '{"/a":7}']) expect(parseImageDetails(junk)).toEqual({});
    expect(parseImageDetails('{"/a":{"alt":5,"caption":"تعليق"}}')).toEqual({
      "/a": { alt: "", caption: "تعليق", credit: "" },
    });
  });
});
