import { describe, expect, it } from "vitest";
import { topicMessages } from "./newsroom-messages";
import { wirePath } from "./news";
import {
  MAX_TOPICS_PER_ARTICLE,
  parseTopicList,
  TOPIC_NAME_MAX,
  topicKey,
  topicNameProblem,
  topicPath,
  topicSlug,
} from "./topics";

describe("topicKey", () => {
  it("folds the spellings search folds into one key", () => {
    expect(topicKey("المنيه")).toBe(topicKey("المنية"));
    expect(topicKey("  أزمة   الكهرباء ")).toBe(topicKey("ازمه الكهرباء"));
    expect(topicKey("الضِّنِّيَّة")).toBe(topicKey("الضنية"));
    expect(topicKey("طرابلـــس")).toBe("طرابلس");
    expect(topicKey("المنية")).not.toBe(topicKey("الضنية"));
  });
});

describe("topicSlug", () => {
  it("keeps the name's Arabic letters, words joined by hyphens", () => {
    expect(topicSlug("المنية")).toBe("المنية");
    expect(topicSlug("أزمة الكهرباء")).toBe("أزمة-الكهرباء");
    expect(topicSlug("  نادي   الشمال ")).toBe("نادي-الشمال");
  });

  it("drops tashkeel, tatweel, punctuation and invisible marks, and lowers Latin", () => {
    expect(topicSlug("الضِّنِّيَّة")).toBe("الضنية");
    expect(topicSlug("طرابلـــس")).toBe("طرابلس");
    expect(topicSlug("«مهرجان» طرابلس، الثقافي!")).toBe("مهرجان-طرابلس-الثقافي");
    expect(topicSlug("\u200fCOVID-19\u200e")).toBe("covid-19");
    expect(topicSlug("انتخابات ٢٠٢٦")).toBe("انتخابات-2026");
    expect(topicSlug("a/b?c#d.e")).toBe("a-b-c-d-e");
  });

  it("reads as Arabic in the path, and is percent-encoded on the wire", () => {
    const path = topicPath(topicSlug("المنية"));
    expect(path).toBe("/topic/المنية");
    expect(wirePath(path)).toBe("/topic/%D8%A7%D9%84%D9%85%D9%86%D9%8A%D8%A9");
  });
});

describe("limits", () => {
  it("refuses a name too long or with no letter or digit", () => {
    expect(topicNameProblem("ا".repeat(TOPIC_NAME_MAX))).toBeNull();
    expect(topicNameProblem("ا".repeat(TOPIC_NAME_MAX + 1))).toBe(topicMessages.nameTooLong);
    expect(topicNameProblem("!!! ـــ")).toBe(topicMessages.nameEmpty);
    expect(topicNameProblem("\u064e\u0651")).toBe(topicMessages.nameEmpty);
  });

  it("reads the form's list, Arabic and Latin commas, each spelling once", () => {
    expect(parseTopicList("المنية، طرابلس, عكار\nالمنيه,, ")).toEqual({ names: ["المنية", "طرابلس", "عكار"] });
    expect(parseTopicList("")).toEqual({ names: [] });
  });

  it("refuses more than ten topics, a name too long and a list too long", () => {
    const names = Array.from({ length: MAX_TOPICS_PER_ARTICLE + 1 }, (_, i) => `موضوع ${i}`);
    expect(parseTopicList(names.slice(0, -1).join("،"))).toEqual({ names: names.slice(0, -1) });
    expect(parseTopicList(names.join("،"))).toEqual({ problem: topicMessages.tooMany });
    expect(parseTopicList(`طرابلس، ${"ب".repeat(61)}`)).toEqual({ problem: topicMessages.nameTooLong });
    expect(parseTopicList("،".repeat(1_001))).toEqual({ problem: topicMessages.listTooLong });
  });
});
