import type { ReactNode } from "react";

/** The text inputs' look across the newsroom's forms. */
export const input = "w-full rounded border border-stone-300 bg-white px-3 py-2 aria-invalid:border-brand-600";

type Props = {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  /** The control; as a function, it is given the id its `aria-describedby` names (the error, else the hint). */
  children: ReactNode | ((describedBy: string | undefined) => ReactNode);
};

/** A label, the control, an optional hint and the field's error; ids follow `{id}-hint`, `{id}-error`. */
export function FormField({ id, label, hint, error, children }: Props) {
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  return (
    <div>
      <label htmlFor={id} className="mb-1 block font-bold">
        {label}
      </label>
      {typeof children === "function" ? children(describedBy) : children}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-stone-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm font-bold text-brand-700">
          {error}
        </p>
      )}
    </div>
  );
}
