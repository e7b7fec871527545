import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { editorMessages } from "~/lib/newsroom-messages";
import type { RichDocument } from "~/lib/rich-text/document";

/** The editor and its schema come in their own chunk, fetched only where a rich text is written. */
const RichTextEditor = lazy(() => import("./rich-text-editor/rich-text-editor"));

export type RichTextFieldProps = {
  /** The form field that carries the document as JSON (`parseRichDocument` reads it on the server). */
  name: string;
  label: string;
  defaultValue: RichDocument;
  error?: string;
  hint?: string;
  /** What the field's element ids start with, where one page has two fields of one name: `name` unless given. */
  idBase?: string;
};

/**
 * Where a rich text is written in the dashboard: the right-to-left editor once the page runs in the
 * browser, the document posted as JSON under `name` (without JavaScript, the document it was given).
 * Every change is announced as an `input` event of the form, as a typed field's would be (autosave
 * listens for them).
 */
export function RichTextField({ name, label, defaultValue, error, hint, idBase = name }: RichTextFieldProps) {
  const [document, setDocument] = useState(defaultValue);
  const [inBrowser, setInBrowser] = useState(false);
  const hidden = useRef<HTMLInputElement>(null);
  const changed = useRef(false);
  useEffect(() => setInBrowser(true), []);
  useEffect(() => {
    if (changed.current) hidden.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }, [document]);
  const update = (next: RichDocument) => {
    changed.current = true;
    setDocument(next);
  };
  const loading = (
    <p className="min-h-64 rounded border border-stone-300 p-3 text-stone-500">{editorMessages.editorLoading}</p>
  );
  const labelId = `${idBase}-label`;
  const describedBy =
    [error ? `${idBase}-error` : null, hint ? `${idBase}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <span id={labelId} className="font-bold">
        {label}
      </span>
      {inBrowser ? (
        <Suspense fallback={loading}>
          <RichTextEditor
            labelId={labelId}
            describedBy={describedBy}
            invalid={Boolean(error)}
            defaultValue={defaultValue}
            onChange={update}
          />
        </Suspense>
      ) : (
        loading
      )}
      <input ref={hidden} type="hidden" name={name} value={JSON.stringify(document)} />
      {hint ? (
        <p id={`${idBase}-hint`} className="text-sm text-stone-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${idBase}-error`} className="text-sm font-bold text-brand-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
