/**
 * What a search query means and which terms an article is indexed under, independent of the database:
 * an index (FTS5 on SQLite, GIN on PostgreSQL) stores `indexTerms`, answers `QueryWord`s and orders
 * results by `resultTiers`; snippets use `matchesWord`.
 */
import { BoundedCache } from "../bounded-cache";
import { normalizeArabic, wordsOf } from "./arabic";

export const MAX_QUERY_LENGTH = 200;
export const MAX_QUERY_WORDS = 10;
const MIN_STEM_LENGTH = 2;
const MIN_PREFIX_LENGTH = 2;
/** 'الله' less its article is 'له', which as a prefix would find every 'لهم'. */
const MIN_STEM_PREFIX_LENGTH = 3;

/**
 * What a term of a query is, from the closest match to the loosest: the word as typed; the typed word
 * less a clitic the reader typed; a variant, another spelling or number of the word.
 */
export type TermKind = "typed" | "stem" | "variant";
const KINDS: TermKind[] = ["typed", "stem", "variant"];

/** A term of the index, matched whole or as the start of an indexed term. */
export type QueryTerm = { text: string; prefix: boolean; kind: TermKind };
/** One word the reader typed: it matches when any of its terms does. */
export type QueryWord = QueryTerm[];

type Stem = { stem: string; article: boolean };

const CONJUNCTIONS = ["", "و", "ف"];
const PREPOSITIONS = ["", "ب", "ك", "ل"];
const CLITIC_LETTERS = new Set(["و", "ف", "ب", "ك", "ل", "ا"]);

/**
 * The word without its leading clitics, every way Arabic allows: a conjunction (و ف), a preposition
 * (ب ك ل), then the article ال, which after ل is written ل alone (للمدرسة).
 */
function stemsOf(word: string): Stem[] {
  if (word.length <= MIN_STEM_LENGTH || !CLITIC_LETTERS.has(word[0] ?? "")) return [];
  const stems = new Map<string, Stem>();
  for (const conjunction of CONJUNCTIONS) {
    if (!word.startsWith(conjunction)) continue;
    for (const preposition of PREPOSITIONS) {
      const afterPreposition = conjunction.length + preposition.length;
      if (!word.startsWith(preposition, conjunction.length)) continue;
      const articles = preposition === "ل" ? ["", "ال", "ل"] : ["", "ال"];
      for (const article of articles) {
        if (!word.startsWith(article, afterPreposition)) continue;
        const removed = afterPreposition + article.length;
        const stem = word.slice(removed);
        if (removed === 0 || stem.length < MIN_STEM_LENGTH) continue;
        const previous = stems.get(stem);
        stems.set(stem, { stem, article: article !== "" || (previous?.article ?? false) });
      }
    }
  }
  return [...stems.values()];
}

/**
 * Marks an indexed variant key. The normalizer turns every symbol into a space, so no word carries it;
 * it is not ASCII, which FTS5's `ascii` tokenizer would read as a separator.
 */
export const VARIANT_MARK = "¤";
/** Plural and feminine endings: المهندسون مهندسين مهندس, الجامعات جامعة. */
const ENDINGS = ["ون", "ين", "ات", "ه"];
const MIN_BASE_LENGTH = 3;

function withoutEnding(word: string): string {
  const ending = ENDINGS.find((e) => word.endsWith(e) && word.length - e.length >= MIN_BASE_LENGTH);
  return ending === undefined ? word : word.slice(0, -ending.length);
}

/**
 * The keys two spellings or numbers of one word share: hamza on و ي or alone as one seat (شؤون
 * شئون), or dropped onto its seat as readers often type it (موتمر for مؤتمر); each with and without
 * a plural or feminine ending. Two words are variants of each other when their keys meet. No key has
 * ؤ or ئ, so each key is among its own keys.
 */
function variantKeysOf(word: string): string[] {
  const keys = new Set<string>();
  for (const form of [word.replace(/[ؤئ]/g, "ء"), word.replace(/ؤ/g, "و").replace(/ئ/g, "ي")]) {
    keys.add(form);
    keys.add(withoutEnding(form));
  }
  return [...keys];
}

/**
 * The spellings whose variants count: the word and its stems without the article. A stem that only lost
 * a one-letter clitic is a guess already ('بلدية' as 'لديه'); its variants ('لدي') would be noise.
 */
function variantSources(word: string, stems: Stem[]): string[] {
  return [word, ...stems.filter((s) => s.article).map((s) => s.stem)];
}

const indexedTerms = new BoundedCache<string, string[]>({ maxEntries: 50_000 });

/**
 * The terms one normalized word is indexed under: itself, its clitic-free stems, and the variant keys
 * of both that differ from them, marked; memoized, since a language repeats its words.
 */
function indexedTermsOf(word: string): string[] {
  return indexedTerms.get(word, computeIndexedTerms);
}

function computeIndexedTerms(word: string): string[] {
  const stems = stemsOf(word);
  const variants = variantSources(word, stems).flatMap((term) => variantKeysOf(term).filter((key) => key !== term));
  return [...new Set([word, ...stems.map((s) => s.stem), ...variants.map((key) => VARIANT_MARK + key)])];
}

/** Every term an article's text is indexed under: each normalized word, its stems and their variants. */
export function indexTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of new Set(wordsOf(normalizeArabic(text)))) {
    for (const term of indexedTermsOf(word)) terms.add(term);
  }
  return [...terms];
}

/**
 * A typed word matches its own spelling as a prefix ('مدرس' finds 'المدرسة', whose stem is indexed),
 * and its clitic-free stems. A stem that only lost a one-letter clitic must match whole: as a prefix,
 * 'بلدية' would find every 'لديهم' and 'كتاب' every 'تابع'. Last come the variants, whole: a key the
 * typed word or a stem without the article shares with an indexed word, found among its marked keys or as the word itself.
 */
function queryWord(word: string): QueryWord {
  const terms: QueryWord = [{ text: word, prefix: word.length >= MIN_PREFIX_LENGTH, kind: "typed" }];
  const stems = stemsOf(word);
  for (const { stem, article } of stems) {
    terms.push({ text: stem, prefix: article && stem.length >= MIN_STEM_PREFIX_LENGTH, kind: "stem" });
  }
  const spelled = new Set(terms.map((term) => term.text));
  const keys = new Set(variantSources(word, stems).flatMap(variantKeysOf));
  for (const key of keys) {
    terms.push({ text: VARIANT_MARK + key, prefix: false, kind: "variant" });
    if (!spelled.has(key)) terms.push({ text: key, prefix: false, kind: "variant" });
  }
  return terms;
}

/** The reader's query as at most 10 words; empty when nothing searchable is left. */
export function parseQuery(raw: string): QueryWord[] {
  const words = [...new Set(wordsOf(normalizeArabic(raw.slice(0, MAX_QUERY_LENGTH))))];
  return words.slice(0, MAX_QUERY_WORDS).map(queryWord);
}

function termMatches(indexed: string, term: QueryTerm): boolean {
  return term.prefix ? indexed.startsWith(term.text) : indexed === term.text;
}

/** Whether one normalized word of an article is a hit for a query word, as the index would judge it. */
export function matchesWord(normalizedWord: string, word: QueryWord): boolean {
  const indexed = indexedTermsOf(normalizedWord);
  return word.some((term) => indexed.some((candidate) => termMatches(candidate, term)));
}

/** Each query word with only its terms as close as `loosest` or closer. */
function upTo(words: QueryWord[], loosest: TermKind): QueryWord[] {
  const allowed = KINDS.slice(0, KINDS.indexOf(loosest) + 1);
  return words.map((word) => word.filter((term) => allowed.includes(term.kind)));
}

/** Articles that hold every word (with its terms of `words`), in the title or anywhere. */
export type Match = { words: QueryWord[]; inTitle: boolean };
/** One band of results: what `match` finds and no band before it found. */
export type Tier = { match: Match; unless: Match[] };

/**
 * The order of results as disjoint tiers, each read newest first: every word in the title before the
 * rest; within each, the words as typed, then with a typed clitic removed (so 'بلدية' lists 'بلدية'
 * before 'لديه'), then their variants (so 'مهندسين' lists 'مهندسين' before 'المهندسون'). Each match
 * finds all that the ones before it in its place found, so a tier excludes only its predecessor there
 * and, outside the title, the loosest title match.
 */
export function resultTiers(words: QueryWord[]): Tier[] {
  const levels = KINDS.filter((kind, i) => i === 0 || words.some((word) => word.some((term) => term.kind === kind)));
  const inTitle = levels.map((kind) => ({ words: upTo(words, kind), inTitle: true }));
  const anywhere = levels.map((kind) => ({ words: upTo(words, kind), inTitle: false }));
  const loosestTitle = inTitle.at(-1) as Match;
  return [
    ...inTitle.map((match, i) => ({ match, unless: inTitle.slice(Math.max(0, i - 1), i) })),
    ...anywhere.map((match, i) => ({ match, unless: [loosestTitle, ...anywhere.slice(Math.max(0, i - 1), i)] })),
  ];
}
