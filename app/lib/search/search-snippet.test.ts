import { describe, expect, it } from "vitest";
import { highlight, snippet, type Segment } from "./search-snippet";
import { parseQuery } from "./search-terms";

const text = (segments: Segment[]) => segments.map((s) => s.text).join("");
const marked = (segments: Segment[]) => segments.filter((s) => s.match).map((s) => s.text);

const LONG =
  "افتتحت وزارة الصحة العامة مركزاً جديداً للرعاية الأولية في منطقة القبة بحضور فعاليات المدينة وممثلين عن الجمعيات الأهلية. " +
  "وقال المسؤولون إن المركز سيقدم خدماته مجاناً لأبناء المنطقة، على أن يُفتتح قسم جديد لطب الأسنان خلال الأشهر المقبلة. " +
  "وأكد رئيس البلدية أن المشروع يأتي ضمن خطة شاملة لتحسين الخدمات الصحية في طرابلس والجوار، شاكراً الجهات المانحة على دعمها.";

describe("snippet", () => {
  it("cuts about 100 characters around the first match, on word boundaries, with ellipses", () => {
    const segments = snippet(LONG, parseQuery("بلدية"));
    const shown = text(segments);
    expect(shown.length).toBeGreaterThan(80);
    expect(shown.length).toBeLessThanOrEqual(102);
    expect(shown.startsWith("…")).toBe(true);
    expect(shown.endsWith("…")).toBe(true);
    expect(marked(segments)).toEqual(["البلدية"]);
    expect(LONG).toContain(shown.slice(1, -1));
    expect(LONG.includes(` ${shown.slice(1, -1)} `)).toBe(true);
  });

  it("marks every matching word in the original spelling, diacritics and clitics included", () => {
    const segments = snippet("وقال المسؤولون إن المركز سيُفتَتَح، والمركزُ جديد.", parseQuery("مركز مسوولون"));
    expect(marked(segments)).toEqual(["المسؤولون", "المركز", "والمركزُ"]);
    expect(text(segments)).toBe("وقال المسؤولون إن المركز سيُفتَتَح، والمركزُ جديد.");
  });

  it("starts at the beginning when only the title matched, and flattens line breaks", () => {
    const segments = snippet("الفقرة الأولى.\n\nالفقرة الثانية.", parseQuery("عنوان"));
    expect(segments).toEqual([{ text: "الفقرة الأولى. الفقرة الثانية.", match: false }]);
  });

  it("keeps markup as text: it is never parsed", () => {
    const segments = snippet('<script>alert("x")</script> خبر <b>عاجل</b>', parseQuery("عاجل"));
    expect(text(segments)).toBe('<script>alert("x")</script> خبر <b>عاجل</b>');
    expect(marked(segments)).toEqual(["عاجل"]);
  });
});

describe("highlight", () => {
  it("marks the matching words of a title", () => {
    const segments = highlight("وزارة التربية تعلن إقفال المدارس غدًا", parseQuery("اقفال مدارس"));
    expect(marked(segments)).toEqual(["إقفال", "المدارس"]);
    expect(text(segments)).toBe("وزارة التربية تعلن إقفال المدارس غدًا");
  });
});
