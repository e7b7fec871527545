import type { FormEvent, ReactNode } from "react";

/** A labelled input of the users and account pages, with its error under it. */
export function TextField(props: {
  name: string;
  label: string;
  type?: "text" | "email" | "password" | "search";
  maxLength: number;
  minLength?: number;
  error?: string;
  autoComplete?: string;
  defaultValue?: string;
  required?: boolean;
  idPrefix?: string;
}) {
  const id = `${props.idPrefix ?? ""}${props.name}`;
  const errorId = `${id}-error`;
  const latin = props.type === "email" || props.type === "password";
  return (
    <div className="min-w-0">
      <label htmlFor={id} className="mb-1 block font-bold">
        {props.label}
      </label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? "text"}
        required={props.required ?? true}
        maxLength={props.maxLength}
        minLength={props.minLength}
        autoComplete={props.autoComplete}
        defaultValue={props.defaultValue}
        dir={latin ? "ltr" : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        className="w-full rounded border border-stone-300 bg-white px-3 py-2 text-start aria-invalid:border-brand-600"
      />
      {props.error && (
        <p id={errorId} className="mt-1 text-sm font-bold text-brand-700">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A done message (status) or a refusal (alert). */
export function Notice({ tone, children }: { tone: "done" | "error" | "info"; children: ReactNode }) {
  const look = {
    done: "border-green-700/30 bg-green-50 text-green-800",
    error: "border-brand-600/30 bg-brand-50 text-brand-800",
    info: "border-stone-300 bg-stone-50 text-stone-700",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded border p-3 font-bold ${look}`}>
      {children}
    </div>
  );
}

/** A form's submit handler that asks `question` first and sends nothing unless confirmed. */
export function confirmFirst(question: string) {
  return (event: FormEvent) => {
    if (!window.confirm(question)) event.preventDefault();
  };
}

export const accountButton =
  "rounded border border-stone-300 bg-white px-3 py-1.5 text-sm font-bold whitespace-nowrap hover:bg-stone-100";
export const primaryButton = "rounded bg-brand-600 px-4 py-2 font-bold text-white hover:bg-brand-700";
