/** A LIKE pattern (with `escape '\'`) that finds `text` anywhere: `%` and `_` typed in a search match themselves. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

/** A LIKE pattern (with `escape '\'`) that finds text starting with `text`. */
export function prefixPattern(text: string): string {
  return `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}
