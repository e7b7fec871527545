import { useEffect, useState, type RefObject } from "react";
import { conflictMessages } from "~/lib/newsroom-messages";
import { documentPlainText, parseRichDocument } from "~/lib/rich-text/document";
import { countWords, readingMinutes } from "~/lib/word-count";

function wordsOfForm(form: HTMLFormElement | null): number {
  const json = form?.elements.namedItem("body");
  const document = json instanceof HTMLInputElement ? parseRichDocument(json.value) : null;
  return document ? countWords(documentPlainText(document)) : 0;
}

/** The body's word count and reading time, kept up to date as one types. */
export function BodyStats({ form }: { form: RefObject<HTMLFormElement | null> }) {
  const [words, setWords] = useState<number | null>(null);
  useEffect(() => {
    const element = form.current;
    if (!element) return;
    const count = () => setWords(wordsOfForm(element));
    count();
    element.addEventListener("input", count);
    return () => element.removeEventListener("input", count);
  }, [form]);
  if (words === null) return null;
  return (
    <p className="text-sm text-stone-600" data-testid="body-stats" aria-live="polite">
      {conflictMessages.wordCount(words)} · {conflictMessages.readingTime(readingMinutes(words))}
    </p>
  );
}
