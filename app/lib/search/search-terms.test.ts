import { describe, expect, it } from "vitest";
import { normalizeArabic } from "./arabic";
import { indexTerms, matchesWord, MAX_QUERY_WORDS, parseQuery, VARIANT_MARK } from "./search-terms";

const finds = (query: string, word: string) => {
  const words = parseQuery(query);
  return words.length > 0 && words.every((q) => matchesWord(normalizeArabic(word), q));
};

/** The terms of an article less its variant keys. */
const spelledTerms = (text: string) => indexTerms(text).filter((term) => !term.startsWith(VARIANT_MARK));

describe("indexTerms", () => {
  it("indexes each word and its stems without leading clitics", () => {
    expect(spelledTerms("والمدرسة")).toEqual(["والمدرسه", "المدرسه", "مدرسه"]);
    expect(spelledTerms("للمدرسة").sort()).toEqual(["للمدرسه", "لمدرسه", "مدرسه"].sort());
    expect(indexTerms("فبالتعاون")).toContain("تعاون");
    expect(indexTerms("طرابلس")).toEqual(["طرابلس"]);
  });

  it("indexes the variant keys of a word and of its stems without the article, marked", () => {
    expect(indexTerms("المهندسون")).toEqual(["المهندسون", "مهندسون", "¤المهندس", "¤مهندس"]);
    expect(indexTerms("شؤون").sort()).toEqual(["شؤون", "¤شءون", "¤شوون"].sort());
    expect(indexTerms("بلدية")).toEqual(["بلديه", "لديه", "¤بلدي"]);
  });

  it("never stems a word to less than two letters, and lists each term once", () => {
    expect(spelledTerms("ال وب لل")).toEqual(["ال", "وب", "لل"]);
    expect(spelledTerms("الخبر الخبر")).toEqual(["الخبر", "خبر"]);
  });
});

describe("matching words the way the index does", () => {
  it("matches as a prefix: 'مدرس' finds 'المدرسة'", () => {
    expect(finds("مدرس", "المدرسة")).toBe(true);
    expect(finds("مدرس", "والمدرسين")).toBe(true);
  });

  it("matches across leading و ف ب ل ك and ال, on either side", () => {
    for (const [query, text] of [
      ["مدرسة", "والمدرسة"],
      ["والمدرسة", "مدرسة"],
      ["بالمدرسة", "المدرسة"],
      ["المدرسة", "للمدرسة"],
      ["فالمدرسة", "بمدرسة"],
      ["كالمدرسة", "مدرسة"],
      ["بمدرسة", "مدرسة"],
      ["لبنان", "وللبنان"],
    ]) {
      expect(finds(query as string, text as string), `${query} → ${text}`).toBe(true);
    }
  });

  it("matches hamza, taa marbuta, yaa and digit spellings both ways", () => {
    expect(finds("اسعاف", "إسعاف")).toBe(true);
    expect(finds("إسعاف", "اسعاف")).toBe(true);
    expect(finds("بلديه", "بلدية")).toBe(true);
    expect(finds("بلدية", "بلديه")).toBe(true);
    expect(finds("٢٠٢٦", "2026")).toBe(true);
    expect(finds("2026", "٢٠٢٦")).toBe(true);
  });

  it("does not let a one-letter clitic turn a word into a prefix of others", () => {
    expect(finds("كتاب", "تابع")).toBe(false);
    expect(finds("بلدية", "لديهم")).toBe(false);
    expect(finds("الله", "لهم")).toBe(false);
    expect(finds("بلدية", "لدي")).toBe(false);
  });

  it("matches plural and feminine endings both ways: المهندسون مهندسين مهندس, الجامعات جامعة", () => {
    const forms = ["المهندسون", "مهندسين", "مهندس", "والمهندسين", "مهندسة", "المهندسات"];
    for (const query of forms) for (const text of forms) expect(finds(query, text), `${query} → ${text}`).toBe(true);
    expect(finds("الجامعات", "جامعة")).toBe(true);
    expect(finds("جامعة", "الجامعات")).toBe(true);
    expect(finds("لبنانيين", "اللبنانية")).toBe(true);
    expect(finds("مهندسين", "مهند")).toBe(false);
  });

  it("matches hamza on و and on ي and alone as one seat, and hamza left off its seat", () => {
    for (const [query, text] of [
      ["شؤون", "شئون"],
      ["شئون", "شؤون"],
      ["الشؤون", "والشئون"],
      ["مسئول", "المسؤول"],
      ["جزئي", "جزءي"],
      ["موتمر", "مؤتمر"],
      ["رييس", "رئيس"],
      ["مسؤولين", "المسئولون"],
    ]) {
      expect(finds(query as string, text as string), `${query} → ${text}`).toBe(true);
    }
    expect(finds("شوون", "شئون")).toBe(false);
  });
});

describe("parseQuery", () => {
  it("lists the typed word, then its stems, then its variants", () => {
    const [word] = parseQuery("المهندسين");
    expect(word?.map((t) => [t.kind, t.text, t.prefix])).toEqual([
      ["typed", "المهندسين", true],
      ["stem", "مهندسين", true],
      ["variant", "¤المهندسين", false],
      ["variant", "¤المهندس", false],
      ["variant", "المهندس", false],
      ["variant", "¤مهندسين", false],
      ["variant", "¤مهندس", false],
      ["variant", "مهندس", false],
    ]);
  });

  it("is empty for blank, punctuation-only, diacritics-only and emoji-only queries", () => {
    for (const query of ["", "   ", '"', "*", ")", "(", "-", "\u064e\u0651\u0650", "😀🎉", "«»،؟"]) {
      expect(parseQuery(query), JSON.stringify(query)).toEqual([]);
    }
  });

  it("reads FTS syntax as words: NEAR( and AND are text", () => {
    expect(parseQuery('NEAR("a" b) AND -c*').map((w) => w[0]?.text)).toEqual(["near", "a", "b", "and", "c"]);
  });

  it("keeps at most 200 characters and 10 distinct words", () => {
    expect(parseQuery("كلمة ".repeat(1000))).toHaveLength(1);
    const many = Array.from({ length: 30 }, (_, i) => `w${i}`).join(" ");
    expect(parseQuery(many)).toHaveLength(MAX_QUERY_WORDS);
    expect(parseQuery(`${"ا".repeat(5000)} طرابلس`)).toHaveLength(1);
  });
});
