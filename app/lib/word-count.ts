/** Words a reader reads in a minute, for the reading time the form shows. */
export const WORDS_PER_MINUTE = 200;

/** The words of a text: runs of anything but spaces that hold a letter or a digit. */
export function countWords(text: string): number {
  return text.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** Whole minutes to read `words` words, at least one. */
export function readingMinutes(words: number): number {
  return Math.max(1, Math.ceil(words / WORDS_PER_MINUTE));
}
