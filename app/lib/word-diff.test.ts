import { describe, expect, it } from "vitest";
import { changed, wordDiff } from "./word-diff";

const joined = (parts: ReturnType<typeof wordDiff>, kinds: string[]) =>
  parts
    .filter((p) => kinds.includes(p.kind))
    .map((p) => p.text)
    .join("");

describe("wordDiff", () => {
  it("marks the words added and removed, in reading order, and gives back both texts", () => {
    const older = "وصل الوفد إلى طرابلس صباح الأحد";
    const newer = "وصل الوفد الرسمي إلى بيروت صباح الأحد";
    const parts = wordDiff(older, newer);
    expect(parts).toEqual([
      { kind: "same", text: "وصل الوفد " },
      { kind: "added", text: "الرسمي " },
      { kind: "same", text: "إلى " },
      { kind: "removed", text: "طرابلس " },
      { kind: "added", text: "بيروت " },
      { kind: "same", text: "صباح الأحد" },
    ]);
    expect(joined(parts, ["same", "added"])).toBe(newer);
    expect(joined(parts, ["same", "removed"])).toBe(older);
  });

  it("finds no change in equal texts, and all of it in an emptied one", () => {
    expect(changed(wordDiff("نص واحد", "نص واحد"))).toBe(false);
    expect(wordDiff("نص", "")).toEqual([{ kind: "removed", text: "نص" }]);
    expect(wordDiff("", "نص جديد")).toEqual([{ kind: "added", text: "نص جديد" }]);
  });

  it("keeps the space before a removed last word", () => {
    expect(wordDiff("افتتاح المرفأ الجديد", "افتتاح المرفأ")).toEqual([
      { kind: "same", text: "افتتاح المرفأ" },
      { kind: "removed", text: " الجديد" },
    ]);
  });

  it("keeps paragraph breaks and shows a very long rewrite as replaced whole", () => {
    const parts = wordDiff("أ\n\nب", "أ\n\nج");
    expect(joined(parts, ["same", "added"])).toBe("أ\n\nج");
    const long = (word: string) => Array.from({ length: 3000 }, (_, i) => `${word}${i}`).join(" ");
    const rewrite = wordDiff(long("قديم"), long("جديد"));
    expect(rewrite.map((p) => p.kind)).toEqual(["removed", "added"]);
  });
});
