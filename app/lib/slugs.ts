/*
 * The words of an address segment, for articles (`/news/{id}/{slug}`) and topics (`/topic/{slug}`): letters
 * and digits of any script (Arabic kept as Arabic, Latin lower-cased, Arabic-Indic digits as ASCII), every
 * other character a break; tashkeel, tatweel, other combining marks and invisible format characters dropped.
 * HTML carries a slug as it reads; `absoluteUrl` and `wirePath` percent-encode it on the wire.
 */

const DROPPED = /[\p{M}\p{Cf}\u0640]/gu;
const ARABIC_DIGITS = /[\u0660-\u0669\u06f0-\u06f9]/g;
const SEPARATORS = /[^\p{L}\p{N}]+/u;

export function slugWords(text: string): string[] {
  return text
    .normalize("NFKC")
    .replace(DROPPED, "")
    .replace(ARABIC_DIGITS, (digit) => String((digit.codePointAt(0)! & 0xf) % 10))
    .toLowerCase()
    .split(SEPARATORS)
    .filter(Boolean);
}
