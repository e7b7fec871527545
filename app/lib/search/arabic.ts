/**
 * The one normalizer for search, run on indexed text and on queries alike, so that the spellings a
 * reader may type (with or without hamza on alef, ة written as ه, diacritics, Arabic-Indic digits) meet.
 * Hamza on و and ي stays: شؤون and شئون meet through search-terms.ts's variants, below the form typed.
 * The result keeps only letters, digits and single-character spaces: words are what lies between spaces.
 */

const LETTER_FOLDS = new Map<number, string>([
  [0x0622, "ا"], // آ
  [0x0623, "ا"], // أ
  [0x0625, "ا"], // إ
  [0x0671, "ا"], // ٱ
  [0x0629, "ه"], // ة
  [0x0649, "ي"], // ى
  [0x06cc, "ي"], // Persian yeh, as typed on Persian keyboards
  [0x06a9, "ك"], // Persian kaf
]);

const TATWEEL = 0x0640;
const ARABIC_DIGIT_ZERO = 0x0660;
const PERSIAN_DIGIT_ZERO = 0x06f0;

/** Tashkeel, superscript alef, combining hamza and madda, Quranic marks. */
function isArabicMark(code: number): boolean {
  return (
    (code >= 0x064b && code <= 0x065f) ||
    code === 0x0670 ||
    (code >= 0x0610 && code <= 0x061a) ||
    (code >= 0x06d6 && code <= 0x06dc) ||
    (code >= 0x06df && code <= 0x06e4) ||
    code === 0x06e7 ||
    code === 0x06e8 ||
    (code >= 0x06ea && code <= 0x06ed)
  );
}

const MARK = /^\p{M}$/u;
const FORMAT = /^\p{Cf}$/u;
const SEPARATOR = /^[\p{P}\p{S}\p{Z}\p{Cc}\p{Co}\p{Cs}\p{Cn}]$/u;
const VARIATION_SELECTOR = /^[\uFE00-\uFE0F\u{E0100}-\u{E01EF}]$/u;

function isMark(code: number, char: string): boolean {
  if (code < 0x0300) return false;
  if (code <= 0x036f) return true;
  if (code >= 0x0600 && code <= 0x06ff) return isArabicMark(code);
  return MARK.test(char);
}

/** Characters whose NFKC form is themselves and that need no folding: most of any Arabic text. */
function isPlain(code: number): boolean {
  return (
    (code >= 0x0627 && code <= 0x063a && code !== 0x0629) ||
    code === 0x0621 || // ء
    code === 0x0624 || // ؤ
    code === 0x0626 || // ئ
    (code >= 0x0641 && code <= 0x064a && code !== 0x0649) ||
    code === 0x20 ||
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x61 && code <= 0x7a)
  );
}

function isAsciiAlphanumeric(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** What one code point of NFKC text becomes; `afterSpace` drops marks that belong to no letter. */
function foldCodePoint(code: number, char: string, afterSpace: boolean): string {
  const letter = LETTER_FOLDS.get(code);
  if (letter !== undefined) return letter;
  if (code >= ARABIC_DIGIT_ZERO && code <= ARABIC_DIGIT_ZERO + 9) return String(code - ARABIC_DIGIT_ZERO);
  if (code >= PERSIAN_DIGIT_ZERO && code <= PERSIAN_DIGIT_ZERO + 9) return String(code - PERSIAN_DIGIT_ZERO);
  if (code === TATWEEL || isArabicMark(code) || FORMAT.test(char) || VARIATION_SELECTOR.test(char)) return "";
  if (code < 0x80) return isAsciiAlphanumeric(code) ? char.toLowerCase() : " ";
  if (isMark(code, char)) return afterSpace ? "" : char;
  if (SEPARATOR.test(char)) return " ";
  return char.toLowerCase();
}

function startsWithMark(text: string, at: number): boolean {
  if (at >= text.length) return false;
  const unit = text.charCodeAt(at);
  if (unit < 0x0300 || isPlain(unit)) return false;
  const code = text.codePointAt(at) ?? 0;
  return isMark(code, String.fromCodePoint(code));
}

/** A lone character of ASCII or the basic Arabic block (but for its four high-hamza letters) is its own NFKC form. */
function isOwnNfkc(cluster: string): boolean {
  if (cluster.length !== 1) return false;
  const code = cluster.charCodeAt(0);
  return code < 0xa0 || (code >= 0x0600 && code <= 0x06ff && !(code >= 0x0675 && code <= 0x0678));
}

type Emit = (folded: string, start: number, end: number) => void;

/**
 * Walks the text one cluster (a character and the marks that follow it) at a time, because NFKC can
 * only compose within a cluster. `emitPlain` receives runs that stay as they are, one source unit per
 * output unit; `emitFolded` each other cluster's folded text and its place in the source.
 */
function foldClusters(text: string, emitPlain: Emit, emitFolded: Emit): void {
  let afterSpace = true;
  let start = 0;
  while (start < text.length) {
    let end = start;
    while (end < text.length && isPlain(text.charCodeAt(end)) && !startsWithMark(text, end + 1)) end++;
    if (end > start) {
      emitPlain(text.slice(start, end), start, end);
      afterSpace = text.charCodeAt(end - 1) === 0x20;
      start = end;
      continue;
    }
    end = start + ((text.codePointAt(start) ?? 0) > 0xffff ? 2 : 1);
    while (startsWithMark(text, end)) end += (text.codePointAt(end) ?? 0) > 0xffff ? 2 : 1;
    const cluster = text.slice(start, end);
    let folded = "";
    for (const char of isOwnNfkc(cluster) ? cluster : cluster.normalize("NFKC")) {
      const piece = foldCodePoint(char.codePointAt(0) ?? 0, char, afterSpace);
      if (piece === "") continue;
      folded += piece;
      afterSpace = piece === " ";
    }
    emitFolded(folded, start, end);
    start = end;
  }
}

export function normalizeArabic(text: string): string {
  let out = "";
  const append: Emit = (folded) => (out += folded);
  foldClusters(text, append, append);
  return out;
}

/**
 * The normalized text, and for each of its UTF-16 units the range of the source it came from, so a
 * match found in normalized text can be marked in the original.
 */
export function normalizeWithSourceMap(text: string): { text: string; sourceStart: number[]; sourceEnd: number[] } {
  let out = "";
  const sourceStart: number[] = [];
  const sourceEnd: number[] = [];
  foldClusters(
    text,
    (plain, start) => {
      out += plain;
      for (let i = 0; i < plain.length; i++) {
        sourceStart.push(start + i);
        sourceEnd.push(start + i + 1);
      }
    },
    (folded, start, end) => {
      out += folded;
      for (let i = 0; i < folded.length; i++) {
        sourceStart.push(start);
        sourceEnd.push(end);
      }
    },
  );
  return { text: out, sourceStart, sourceEnd };
}

/** The words of normalized text. */
export function wordsOf(normalized: string): string[] {
  return normalized.split(" ").filter((word) => word !== "");
}
