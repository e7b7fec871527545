import { describe, expect, it } from "vitest";
import { demoArticles } from "~/server/demo/demo-articles";
import { normalizeArabic, normalizeWithSourceMap, wordsOf } from "./arabic";

/** Each rule: spellings a reader may type, and the one form they all become. */
const FOLDS: [string, string[], string][] = [
  ["hamza on alef (أ)", ["أحمد", "احمد"], "احمد"],
  ["hamza under alef (إ)", ["إسلام", "اسلام"], "اسلام"],
  ["madda (آ)", ["آثار", "اثار"], "اثار"],
  ["wasla (ٱ)", ["ٱلكتاب", "الكتاب"], "الكتاب"],
  ["taa marbuta (ة)", ["مدرسة", "مدرسه"], "مدرسه"],
  ["alef maqsura (ى)", ["مستشفى", "مستشفي"], "مستشفي"],
  ["decomposed hamza on waw (NFKC)", ["و\u0654", "ؤ"], "ؤ"],
  ["tashkeel", ["مُحَمَّدٌ", "محمد"], "محمد"],
  ["tanween and sukun", ["كتابًا مِنْ", "كتابا من"], "كتابا من"],
  ["superscript alef (U+0670)", ["هٰذا", "هذا"], "هذا"],
  ["tatweel", ["عـــربي", "عربي"], "عربي"],
  ["Arabic-Indic digits", ["٢٠٢٦", "2026"], "2026"],
  ["Persian digits", ["۲۰۲۶", "2026"], "2026"],
  ["Latin case", ["COVID Beirut", "covid beirut"], "covid beirut"],
  ["NFKC presentation forms", ["ﻻ ﷲ", "لا الله"], "لا الله"],
  ["decomposed hamza (NFKC)", ["ا\u0654حمد", "احمد"], "احمد"],
];

describe("normalizeArabic", () => {
  for (const [rule, spellings, folded] of FOLDS) {
    it(`folds ${rule} both ways to one form`, () => {
      for (const spelling of spellings) expect(normalizeArabic(spelling)).toBe(folded);
      expect(normalizeArabic(folded)).toBe(folded);
    });
  }

  it("keeps hamza on و and ي and alone, which search-terms.ts matches as variants", () => {
    expect(normalizeArabic("شؤون شئون جزء")).toBe("شؤون شئون جزء");
  });

  it("turns punctuation, symbols and emoji into spaces, and drops invisible marks", () => {
    expect(wordsOf(normalizeArabic("«قال»: نعم، لا؟ (حقاً!) - 5*3"))).toEqual(["قال", "نعم", "لا", "حقا", "5", "3"]);
    expect(wordsOf(normalizeArabic("❤️ طرابلس 👍🏽"))).toEqual(["طرابلس"]);
    expect(normalizeArabic("\u200cكلمة\u200f")).toBe("كلمه");
    expect(normalizeArabic("\u064e\u0651\u0652")).toBe("");
  });

  it("leaves only letters, digits and spaces", () => {
    const text = demoArticles.flatMap((a) => [a.title, ...a.paragraphs]).join("\n");
    expect(normalizeArabic(text)).toMatch(/^[\p{L}\p{N} ]*$/u);
  });
});

describe("normalizeWithSourceMap", () => {
  it("gives the same text as normalizeArabic on every demo article", () => {
    for (const article of demoArticles) {
      const text = [article.title, ...article.paragraphs].join("\n\n");
      expect(normalizeWithSourceMap(text).text).toBe(normalizeArabic(text));
    }
  });

  it("maps each normalized character back to the original, diacritics included", () => {
    const original = "قال مُحَمَّدٌ";
    const { text, sourceStart, sourceEnd } = normalizeWithSourceMap(original);
    const at = text.indexOf("محمد");
    expect(original.slice(sourceStart[at], sourceEnd[at + 3])).toBe("مُحَمَّدٌ");
  });
});
