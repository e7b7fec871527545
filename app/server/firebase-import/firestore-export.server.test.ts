import { describe, expect, it } from "vitest";
import { MalformedExportError, parseFirestoreExport } from "./firestore-export.server";
import { storageObjectOf } from "./storage-files.server";
import { categoryOf, parseArticle } from "./firebase-records.server";

const moment = { _seconds: 1709370900, _nanoseconds: 500_000_000 };

describe("parseFirestoreExport", () => {
  it("reads the firestore-export-import layout, Timestamps as Dates", () => {
    const parsed = parseFirestoreExport(
      JSON.stringify({ "all-news": { a1: { title: "خبر", createdAt: moment, images: ["x"] } } }),
    );
    expect(parsed.layout).toBe("firestore-export-import");
    expect(parsed.collections.get("all-news")?.get("a1")).toEqual({
      title: "خبر",
      createdAt: new Date("2024-03-02T09:15:00.500Z"),
      images: ["x"],
    });
  });

  it("reads the node-firestore-import-export layout, tags removed", () => {
    const doc = { title: "خبر", createdAt: { __datatype__: "timestamp", value: moment }, __collections__: {} };
    const parsed = parseFirestoreExport(JSON.stringify({ __collections__: { "all-news": { a1: doc } } }));
    expect(parsed.layout).toBe("node-firestore-import-export");
    expect(parsed.collections.get("all-news")?.get("a1")).toEqual({
      title: "خبر",
      createdAt: new Date("2024-03-02T09:15:00.500Z"),
    });
  });

  it("refuses a file that is neither", () => {
    for (const text of ["[1,2]", "{}", '{"all-news": 3}', '{"__collections__": []}', "not json"]) {
      expect(() => parseFirestoreExport(text), text).toThrow(MalformedExportError);
    }
  });
});

describe("an all-news document", () => {
  it("takes the original's category spellings and reports an unknown one", () => {
    expect(categoryOf("educatonal")).toBe("educational");
    expect(categoryOf("رياضة")).toBe("sports");
    const warnings: string[] = [];
    const parsed = parseArticle("a1", { title: "خبر", category: "weather", createdAt: new Date() }, warnings);
    expect(parsed.ok && parsed.value.category).toBe("miscellaneous");
    expect(warnings).toEqual(['unknown category "weather", imported as miscellaneous']);
  });

  it("is malformed without a title or a date", () => {
    expect(parseArticle("a1", { category: "local", createdAt: new Date() }, []).ok).toBe(false);
    expect(parseArticle("a1", { title: "خبر", category: "local", createdAt: "yesterday" }, []).ok).toBe(false);
  });
});

describe("storageObjectOf", () => {
  it("reads the forms of a Storage URL and nothing else", () => {
    expect(
      storageObjectOf(
        "https://firebasestorage.googleapis.com/v0/b/b.appspot.com/o/news-images%2F1-a%20b.jpg?alt=media&token=t",
      ),
    ).toEqual({ bucket: "b.appspot.com", objectPath: "news-images/1-a b.jpg" });
    expect(storageObjectOf("https://storage.googleapis.com/b.appspot.com/news-videos/2.mp4")).toEqual({
      bucket: "b.appspot.com",
      objectPath: "news-videos/2.mp4",
    });
    expect(storageObjectOf("gs://b.appspot.com/news-images/3.png")).toEqual({
      bucket: "b.appspot.com",
      objectPath: "news-images/3.png",
    });
    expect(storageObjectOf("https://example.com/news-images/3.png")).toBeNull();
    expect(storageObjectOf("/media/news-images/x.webp")).toBeNull();
  });
});
