import { Link } from "react-router";
import { Notice, primaryButton } from "~/components/account-fields";
import { categoryLabel, NEWSLETTER_CATEGORIES } from "~/lib/categories";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { newsletterMessages as m } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { readSmallForm } from "~/server/http/form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { choicesOf } from "~/server/newsletter/addresses.server";
import { readPreferences, savePreferences, unsubscribeByLink } from "~/server/newsletter/subscribers.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/newsletter-preferences";

const tokenOf = (url: URL) => (url.searchParams.get("t") ?? "").slice(0, 500);

/** A subscriber's own page, opened from any of its mails: no password, the link is the key. */
export async function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const token = tokenOf(url);
  try {
    return { token, preferences: await readPreferences(site.db, site.config.authSecret, token) };
  } catch (error) {
    throw AppError.is(error) ? pageError(error) : error;
  }
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const form = await readSmallForm(request);
  const fields: Record<string, string[]> = {};
  for (const [name, value] of form.entries()) if (typeof value === "string") (fields[name] ??= []).push(value);
  const token = tokenOf(new URL(request.url));
  const now = site.clock.now();
  return answerForm(async () => {
    if (fields.intent?.[0] === "unsubscribe") {
      await unsubscribeByLink(site.db, site.config.authSecret, token, now);
      return { done: "unsubscribed" as const };
    }
    await savePreferences(site.db, site.config.authSecret, token, choicesOf(fields), now);
    return { done: "saved" as const };
  });
}

export const headers = () => NO_STORE;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/newsletter/preferences",
    title: `${m.preferencesTitle} | ${siteOf(matches).name}`,
    description: m.pageIntro,
    noindex: true,
    image: null,
  });
}

export default function NewsletterPreferences({ loaderData, actionData }: Route.ComponentProps) {
  const { preferences } = loaderData;
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  const box = "mx-auto max-w-xl space-y-5 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8";
  if (done === "unsubscribed")
    return (
      <section className={box} aria-labelledby="preferences-title">
        <h1 id="preferences-title" className="text-2xl font-bold">
          {m.unsubscribedTitle}
        </h1>
        <Notice tone="done">{m.unsubscribedText}</Notice>
        <Link to="/newsletter" className="font-bold text-brand-700 hover:underline">
          {m.resubscribe}
        </Link>
      </section>
    );
  const subscribed = preferences.status === "confirmed";
  const { choices } = preferences;
  return (
    <section className={box} aria-labelledby="preferences-title">
      <h1 id="preferences-title" className="text-2xl font-bold">
        {m.preferencesTitle}
      </h1>
      <p>
        {`${m.preferencesFor}: `}
        <bdi dir="ltr" className="font-bold" data-testid="preferences-email">
          {preferences.email}
        </bdi>
      </p>
      {done === "saved" ? <Notice tone="done">{m.saved}</Notice> : null}
      {!subscribed && !done ? <Notice tone="info">{m.notSubscribed}</Notice> : null}
      {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
      <form method="post" className="space-y-3" data-testid="preferences-form">
        <fieldset className="space-y-2">
          <legend className="mb-1 font-bold">{m.title}</legend>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="brief" defaultChecked={choices.brief} className="size-4" />
            {m.brief}
          </label>
          <label className="flex items-center gap-2">
            <input type="checkbox" name="breaking" defaultChecked={choices.breaking} className="size-4" />
            {m.breaking}
          </label>
        </fieldset>
        {errors.brief ? <p className="text-sm font-bold text-brand-700">{errors.brief}</p> : null}
        <fieldset>
          <legend className="mb-1 text-sm text-stone-600">{m.categories}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-1">
            {NEWSLETTER_CATEGORIES.map((category) => (
              <label key={category} className="flex items-center gap-2">
                <input
                  type="checkbox"
                  name="categories"
                  value={category}
                  defaultChecked={choices.categories.includes(category)}
                  className="size-4"
                />
                {categoryLabel(category)}
              </label>
            ))}
          </div>
        </fieldset>
        <button type="submit" name="intent" value="save" className={primaryButton}>
          {subscribed ? m.save : m.resubscribe}
        </button>
      </form>
      {subscribed ? (
        <form method="post" id="unsubscribe" className="border-t border-stone-200 pt-4">
          <button
            type="submit"
            name="intent"
            value="unsubscribe"
            className="rounded border border-stone-300 bg-white px-4 py-2 font-bold hover:bg-stone-100"
          >
            {m.unsubscribe}
          </button>
        </form>
      ) : null}
    </section>
  );
}
