import { useState } from "react";
import { documentFromPlainText, documentPlainText, type RichDocument } from "~/lib/rich-text/document";

export type RichTextFieldProps = {
  /** The form field that carries the document as JSON (`parseRichDocument` reads it on the server). */
  name: string;
  label: string;
  defaultValue: RichDocument;
  error?: string;
};

/**
 * Where a rich text is written in the dashboard. For now a plain text area whose paragraphs become the
 * document; the right-to-left editor replaces its inside, and keeps this contract: the same props,
 * and the document posted as JSON under `name`.
 */
export function RichTextField({ name, label, defaultValue, error }: RichTextFieldProps) {
  const [document, setDocument] = useState(defaultValue);
  const id = `${name}-text`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="font-bold">
        {label}
      </label>
      <textarea
        id={id}
        dir="rtl"
        rows={12}
        defaultValue={documentPlainText(defaultValue)}
        onChange={(event) => setDocument(documentFromPlainText(event.target.value))}
        aria-invalid={error ? true : undefined}
        className="rounded border border-stone-300 p-3 leading-loose"
      />
      <input type="hidden" name={name} value={JSON.stringify(document)} />
      {error ? <p className="text-sm text-red-700">{error}</p> : null}
    </div>
  );
}
