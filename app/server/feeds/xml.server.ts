/**
 * Characters a feed must not carry: what XML 1.0 forbids (C0 controls other than tab, line feed and
 * carriage return; lone surrogates; U+FFFE and U+FFFF), plus DEL and the C1 controls, which XML 1.0
 * tolerates but feed readers do not.
 */
const UNWANTED_CHARS = /[^\t\n\r\u0020-\u007E\u00A0-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** Text safe inside an element or a quoted attribute. */
export function escapeXml(value: string): string {
  return value.replace(UNWANTED_CHARS, "").replace(/[&<>"']/g, (char) => ENTITIES[char] ?? "");
}

export function element(name: string, text: string): string {
  return `<${name}>${escapeXml(text)}</${name}>`;
}

export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

function parseTimestamp(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** W3C datetime in UTC ("2026-11-22T10:00:00Z"), or null for a missing or unreadable timestamp. */
export function w3cDatetime(value: string | null | undefined): string | null {
  return (
    parseTimestamp(value)
      ?.toISOString()
      .replace(/\.\d{3}Z$/, "Z") ?? null
  );
}

/** RFC 822 date ("Sun, 22 Nov 2026 10:00:00 +0000"), or null for a missing or unreadable timestamp. */
export function rfc822Date(value: string | null | undefined): string | null {
  return parseTimestamp(value)?.toUTCString().replace(/GMT$/, "+0000") ?? null;
}
