/**
 * What a search query means and which terms an article is indexed under, independent of the database:
 * an index (FTS5 today) stores `indexTerms` and answers `QueryWord`s; snippets use `matchesWord`.
 */
import { normalizeArabic, wordsOf } from "./arabic";

export const MAX_QUERY_LENGTH = 200;
export const MAX_QUERY_WORDS = 10;
const MIN_STEM_LENGTH = 2;
const MIN_PREFIX_LENGTH = 2;
/** 'الله' less its article is 'له', which as a prefix would find every 'لهم'. */
const MIN_STEM_PREFIX_LENGTH = 3;

/**
 * A term of the index, matched whole or as the start of an indexed term; `stem` when it is the typed
 * word less a clitic the reader typed, which ranks below the word as typed.
 */
export type QueryTerm = { text: string; prefix: boolean; stem: boolean };
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

const MEMO_SIZE = 50_000;
const indexedStems = new Map<string, string[]>();

/** The stems an indexed word is also found under; memoized, since a language repeats its words. */
function indexedStemsOf(word: string): string[] {
  let stems = indexedStems.get(word);
  if (stems === undefined) {
    if (indexedStems.size >= MEMO_SIZE) indexedStems.clear();
    stems = stemsOf(word).map((s) => s.stem);
    indexedStems.set(word, stems);
  }
  return stems;
}

/** Every term an article's text is indexed under: each normalized word and its clitic-free stems. */
export function indexTerms(text: string): string[] {
  const terms = new Set<string>();
  for (const word of new Set(wordsOf(normalizeArabic(text)))) {
    terms.add(word);
    for (const stem of indexedStemsOf(word)) terms.add(stem);
  }
  return [...terms];
}

/**
 * A typed word matches its own spelling as a prefix ('مدرس' finds 'المدرسة', whose stem is indexed),
 * and its clitic-free stems. A stem that only lost a one-letter clitic must match whole: as a prefix,
 * 'بلدية' would find every 'لديهم' and 'كتاب' every 'تابع'.
 */
function queryWord(word: string): QueryWord {
  const terms: QueryWord = [{ text: word, prefix: word.length >= MIN_PREFIX_LENGTH, stem: false }];
  for (const { stem, article } of stemsOf(word)) {
    terms.push({ text: stem, prefix: article && stem.length >= MIN_STEM_PREFIX_LENGTH, stem: true });
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

/** The query as typed: each word without its stems. */
export function asTyped(words: QueryWord[]): QueryWord[] {
  return words.map((word) => word.filter((term) => !term.stem));
}

/** Whether one normalized word of an article is a hit for a query word, as the index would judge it. */
export function matchesWord(normalizedWord: string, word: QueryWord): boolean {
  const indexed = [normalizedWord, ...indexedStemsOf(normalizedWord)];
  return word.some((term) => indexed.some((candidate) => termMatches(candidate, term)));
}
