import type { DiffPart } from "~/lib/word-diff";

/** Text with the words added underlined in green and those removed struck through in red, in reading order, right to left. */
export function DiffText({ parts, testId }: { parts: DiffPart[]; testId?: string }) {
  return (
    <p dir="rtl" className="diff-text" data-testid={testId}>
      {parts.map((part, index) =>
        part.kind === "added" ? (
          <ins key={index}>{part.text}</ins>
        ) : part.kind === "removed" ? (
          <del key={index}>{part.text}</del>
        ) : (
          <span key={index}>{part.text}</span>
        ),
      )}
    </p>
  );
}
