/** A run of text that both versions share, only the newer has, or only the older had. */
export type DiffPart = { kind: "same" | "added" | "removed"; text: string };

/** Past this many word pairs the middle is shown as replaced whole: the table would cost too much memory. */
const MAX_PAIRS = 4_000_000;

/** Words with the spaces after them, so parts join back into the text exactly. */
function tokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/gu) ?? [];
}

function push(parts: DiffPart[], kind: DiffPart["kind"], text: string): void {
  if (text === "") return;
  const last = parts.at(-1);
  if (last?.kind === kind) last.text += text;
  else parts.push({ kind, text });
}

/** A word both have: a space only one has after it is marked too, so a removed word never runs into the one before. */
function sameWord(parts: DiffPart[], older: string, newer: string): void {
  const word = newer.trimEnd();
  const olderSpace = older.slice(word.length);
  const newerSpace = newer.slice(word.length);
  push(parts, "same", word);
  if (olderSpace !== "" && newerSpace === "") push(parts, "removed", olderSpace);
  else if (olderSpace === "" && newerSpace !== "") push(parts, "added", newerSpace);
  else push(parts, "same", newerSpace);
}

/** The longest common subsequence of two word lists, walked from the start: the shared words and what changed between them. */
function middleParts(older: string[], newer: string[], parts: DiffPart[]): void {
  const n = older.length;
  const m = newer.length;
  if (n * m > MAX_PAIRS) {
    push(parts, "removed", older.join(""));
    push(parts, "added", newer.join(""));
    return;
  }
  // lengths[i * (m + 1) + j]: the LCS of older[i..] and newer[j..].
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * (m + 1) + j] =
        older[i]!.trimEnd() === newer[j]!.trimEnd()
          ? lengths[(i + 1) * (m + 1) + j + 1]! + 1
          : Math.max(lengths[(i + 1) * (m + 1) + j]!, lengths[i * (m + 1) + j + 1]!);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (older[i]!.trimEnd() === newer[j]!.trimEnd()) {
      sameWord(parts, older[i++]!, newer[j++]!);
    } else if (lengths[(i + 1) * (m + 1) + j]! >= lengths[i * (m + 1) + j + 1]!) {
      push(parts, "removed", older[i++]!);
    } else {
      push(parts, "added", newer[j++]!);
    }
  }
  push(parts, "removed", older.slice(i).join(""));
  push(parts, "added", newer.slice(j).join(""));
}

/** The words `newer` adds to `older` and removes from it, in reading order; joining the same and added parts gives `newer`. */
export function wordDiff(older: string, newer: string): DiffPart[] {
  const a = tokens(older);
  const b = tokens(newer);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  const parts: DiffPart[] = [];
  push(parts, "same", b.slice(0, start).join(""));
  middleParts(a.slice(start, a.length - end), b.slice(start, b.length - end), parts);
  push(parts, "same", b.slice(b.length - end).join(""));
  return parts;
}

/** Whether the two texts differ at all. */
export function changed(parts: DiffPart[]): boolean {
  return parts.some((part) => part.kind !== "same");
}
