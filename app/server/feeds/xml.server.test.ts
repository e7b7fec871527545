import { describe, expect, it } from "vitest";
import { HOSTILE_TITLE, HOSTILE_TITLE_AS_READ, parseXml, RFC_822_DATE, W3C_DATETIME } from "../../../tests/support/xml";
import { element, escapeXml, rfc822Date, w3cDatetime, XML_DECLARATION } from "./xml.server";

describe("escapeXml", () => {
  it("escapes markup and quotes, keeps Arabic, and drops characters XML cannot carry", () => {
    expect(escapeXml(`a & b < c > d "e" 'f'`)).toBe("a &amp; b &lt; c &gt; d &quot;e&quot; &apos;f&apos;");
    expect(escapeXml("]]>")).toBe("]]&gt;");
    expect(escapeXml("أخبار الشمال ٢٠٢٦ 😀")).toBe("أخبار الشمال ٢٠٢٦ 😀");
    expect(escapeXml("a\u0000b\u0007c\u001Fd\u007Fe\u0085f\uFFFEg\uFFFFh\uDC00i")).toBe("abcdefghi");
    expect(escapeXml("tab\tline\ncr\r")).toBe("tab\tline\ncr\r");
  });

  it("keeps hostile text well-formed in elements and attributes", () => {
    const doc = parseXml(
      `${XML_DECLARATION}<root value="${escapeXml(HOSTILE_TITLE)}">${element("title", HOSTILE_TITLE)}</root>`,
    );
    expect(doc.root.title).toBe(HOSTILE_TITLE_AS_READ);
    expect(doc.root["@_value"]).toBe(HOSTILE_TITLE_AS_READ);
  });
});

describe("dates", () => {
  it("formats W3C datetimes in UTC and RFC 822 dates", () => {
    expect(w3cDatetime("2026-11-22T10:00:00.000Z")).toBe("2026-11-22T10:00:00Z");
    expect(w3cDatetime("2026-11-22T12:00:00+02:00")).toBe("2026-11-22T10:00:00Z");
    expect(w3cDatetime("2026-11-22T10:00:00.000Z")).toMatch(W3C_DATETIME);
    expect(rfc822Date("2026-11-22T10:00:00.000Z")).toBe("Sun, 22 Nov 2026 10:00:00 +0000");
    expect(rfc822Date("2026-01-05T03:04:05Z")).toMatch(RFC_822_DATE);
  });

  it("gives null for missing or unreadable timestamps instead of throwing", () => {
    for (const bad of [null, undefined, "", "not a date", "2026-13-45"]) {
      expect(w3cDatetime(bad)).toBeNull();
      expect(rfc822Date(bad)).toBeNull();
    }
  });
});
