import { categoryLabel, NEWSLETTER_CATEGORIES, type Category } from "~/lib/categories";
import { newsletterMessages as m } from "~/lib/messages";

/** A sign-up as the form shows it again after a refusal. */
export type NewsletterEcho = { email: string; brief: boolean; breaking: boolean; categories: Category[] };

const FRESH: NewsletterEcho = { email: "", brief: true, breaking: false, categories: [] };

/**
 * The newsletter's sign-up: a plain HTML form posted to /newsletter, so it works without script and adds
 * none to a reader page. `place` keeps its ids apart where a page holds two (an article's end and the footer).
 */
export function NewsletterForm({
  place,
  tone = "light",
  echo = FRESH,
  errors = {},
}: {
  place: string;
  tone?: "light" | "dark";
  echo?: NewsletterEcho;
  errors?: Record<string, string>;
}) {
  const id = (name: string) => `newsletter-${place}-${name}`;
  const dark = tone === "dark";
  const hint = dark ? "text-stone-400" : "text-stone-600";
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
      <p className={`text-sm leading-relaxed ${hint}`}>{m.formHint}</p>
      <div className="flex flex-wrap gap-2">
        <label htmlFor={id("email")} className="sr-only">
          {m.email}
        </label>
        <input
          id={id("email")}
          name="email"
          type="email"
          required
          maxLength={254}
          autoComplete="email"
          dir="ltr"
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
      <fieldset className="space-y-1 text-sm">
        <legend className="sr-only">{m.title}</legend>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="brief" defaultChecked={echo.brief} className="size-4" />
          {m.brief}
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="breaking" defaultChecked={echo.breaking} className="size-4" />
          {m.breaking}
        </label>
      </fieldset>
      {error("brief")}
      <details className="text-sm" open={echo.categories.length > 0 || undefined}>
        <summary className={`cursor-pointer ${hint}`}>{m.categories}</summary>
        <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
          {NEWSLETTER_CATEGORIES.map((category) => (
            <label key={category} className="flex items-center gap-2">
              <input
                type="checkbox"
                name="categories"
                value={category}
                defaultChecked={echo.categories.includes(category)}
                className="size-4"
              />
              {categoryLabel(category)}
            </label>
          ))}
        </div>
      </details>
      {error("categories")}
    </form>
  );
}
