import { describe, expect, it } from "vitest";
import { differences, type SavedStory } from "./edit-conflict";
import { conflictMessages } from "./newsroom-messages";
import { countWords, readingMinutes } from "./word-count";

const doc = (text: string) => ({
  type: "doc" as const,
  content: [{ type: "paragraph" as const, content: [{ type: "text" as const, text }] }],
});

const theirs: SavedStory = {
  id: "a1",
  version: 3,
  title: "عنوانهم",
  standfirst: null,
  body: doc("نصهم"),
  byline: null,
  category: "sports",
  status: "published",
  topics: ["طرابلس"],
  images: ["/media/news-images/a.webp", "/media/news-images/b.webp"],
  imageUrl: null,
  video: null,
  slug: "slug",
  shareTitle: null,
  shareDescription: null,
  noindex: false,
};

function form(fields: Record<string, string | string[]>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) for (const one of [value].flat()) data.append(name, one);
  return data;
}

describe("the conflict view's differences", () => {
  it("lists only the fields where the form and the saved story differ, each as text, with the form's field to take theirs into", () => {
    const mine = form({
      title: "عنواني",
      standfirst: "",
      body: JSON.stringify(doc("نصهم")),
      category: "local",
      status: "published",
      topics: "طرابلس",
      imageOrder: ["/media/news-images/b.webp", "/media/news-images/a.webp"],
      removeImages: "/media/news-images/a.webp",
      slug: "",
    });
    const found = differences(mine, { video: null }, theirs);
    expect(found.map((difference) => difference.field)).toEqual(["title", "category", "images"]);
    expect(found[0]).toMatchObject({ mine: "عنواني", theirs: "عنوانهم", name: "title", value: "عنوانهم" });
    expect(found[1]).toMatchObject({ name: "category", value: "sports" });
    expect(found[2]).toMatchObject({
      mine: conflictMessages.imagesCount(1),
      theirs: conflictMessages.imagesCount(2),
      images: { mine: ["/media/news-images/b.webp"], theirs: theirs.images },
    });
  });
});

describe("word count and reading time", () => {
  it("counts words with a letter or digit, Arabic or not, and rounds reading time up to whole minutes", () => {
    expect(countWords("  نص الخبر — في 3 كلمات\nوأكثر ")).toBe(6);
    expect(countWords("")).toBe(0);
    expect(readingMinutes(0)).toBe(1);
    expect(readingMinutes(201)).toBe(2);
  });
});
