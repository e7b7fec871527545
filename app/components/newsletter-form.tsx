import type { ReactNode } from "react";
import { newsletterFormMessages as m } from "~/lib/messages";

/** A sign-up as the form shows it again after a refusal. */
export type NewsletterEcho = { email: string; brief: boolean; breaking: boolean };

const FRESH: NewsletterEcho = { email: "", brief: true, breaking: false };

/**
 * The newsletter's sign-up: a plain HTML form posted to /newsletter, so it works without script and adds
 * none to a reader page. `place` keeps its ids apart where a page holds two (an article's end and the
 * footer); `more` (the categories, on /newsletter) goes inside it, else a link leads there.
 */
export function NewsletterForm({
  place,
  tone = "light",
  echo = FRESH,
  errors = {},
  more,
}: {
  place: string;
  tone?: "light" | "dark";
  echo?: NewsletterEcho;
  errors?: Record<string, string>;
  more?: ReactNode;
}) {
  const id = (name: string) => `newsletter-${place}-${name}`;
  const dark = tone === "dark";
  const error = (name: string) =>
    errors[name] ? (
      <p id={id(`${name}-error`)} className={`text-sm font-bold ${dark ? "text-red-300" : "text-brand-700"}`}>
        {errors[name]}
      </p>
    ) : null;
  return (
    <form
      method="post"
      action="/newsletter"
      className="space-y-3"
      aria-labelledby={id("title")}
      data-testid="newsletter-form"
    >
      <h2 id={id("title")} className={`text-lg font-bold ${dark ? "text-white" : ""}`}>
        {m.formTitle}
      </h2>
      <div className="flex flex-wrap gap-2">
        <input
          id={id("email")}
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          dir="ltr"
          aria-label={m.email}
          placeholder={m.emailPlaceholder}
          defaultValue={echo.email}
          aria-invalid={errors.email ? true : undefined}
          aria-describedby={errors.email ? id("email-error") : undefined}
          className="min-w-0 flex-1 basis-56 rounded border border-stone-300 bg-white px-3 py-2 text-start text-stone-900"
        />
        <button type="submit" className="rounded bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
          {m.subscribe}
        </button>
      </div>
      {error("email")}
      <p className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
        <label className="flex items-center gap-2">
          <input type="checkbox" name="brief" defaultChecked={echo.brief} className="size-4" />
          {m.brief}
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="breaking" defaultChecked={echo.breaking} className="size-4" />
          {m.breaking}
        </label>
      </p>
      {error("brief")}
      {more ?? (
        <a href="/newsletter" className={`text-sm underline ${dark ? "text-stone-400" : "text-stone-600"}`}>
          {m.moreChoices}
        </a>
      )}
    </form>
  );
}
