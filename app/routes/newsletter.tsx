import { Notice } from "~/components/account-fields";
import { NewsletterForm, type NewsletterEcho } from "~/components/newsletter-form";
import { categoryLabel, isCategory, NEWSLETTER_CATEGORIES, type Category } from "~/lib/categories";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { newsletterMessages as m } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { readSmallForm } from "~/server/http/form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { addressOf, choicesOf } from "~/server/newsletter/addresses.server";
import { signUp } from "~/server/newsletter/subscribers.server";
import { afterResponseContext, clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/newsletter";

function fieldsOf(form: FormData): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const [name, value] of form.entries()) if (typeof value === "string") (fields[name] ??= []).push(value);
  return fields;
}

function echoOf(fields: Record<string, string[]>): NewsletterEcho & { categories: Category[] } {
  return {
    email: (fields.email?.[0] ?? "").slice(0, 254),
    brief: fields.brief?.[0] === "on",
    breaking: fields.breaking?.[0] === "on",
    categories: (fields.categories ?? []).filter(isCategory),
  };
}

/** The categories a subscriber may add, on this page only. */
function CategoryChoices({ chosen, error }: { chosen: Category[]; error: string | undefined }) {
  return (
    <fieldset className="text-sm">
      <legend className="mb-1 text-stone-600">{m.categories}</legend>
      <div className="flex flex-wrap gap-x-4 gap-y-1">
        {NEWSLETTER_CATEGORIES.map((category) => (
          <label key={category} className="flex items-center gap-2">
            <input
              type="checkbox"
              name="categories"
              value={category}
              defaultChecked={chosen.includes(category)}
              className="size-4"
            />
            {categoryLabel(category)}
          </label>
        ))}
      </div>
      {error ? <p className="mt-1 font-bold text-brand-700">{error}</p> : null}
    </fieldset>
  );
}

/** A sign-up from any of the forms: the same answer for every address (no one learns who subscribes). */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const fields = fieldsOf(await readSmallForm(request));
  return answerForm(
    async () => {
      const email = addressOf(fields);
      const choices = choicesOf(fields);
      await signUp(
        { db: site.db, mailer: site.mailer, baseUrl: site.config.baseUrl, secret: site.config.authSecret },
        { email, choices, clientIp: context.get(clientIpContext) },
        site.clock.now(),
        context.get(afterResponseContext),
      );
      return { done: true as const };
    },
    { echo: { echo: echoOf(fields) } },
  );
}

export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/newsletter",
    title: `${m.title} | ${siteOf(matches).name}`,
    description: m.pageIntro,
  });
}

export default function Newsletter({ actionData }: Route.ComponentProps) {
  const done = actionData && "done" in actionData;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  const echo = actionData && "echo" in actionData ? actionData.echo : undefined;
  return (
    <section
      className="mx-auto max-w-xl space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8"
      aria-labelledby="newsletter-title"
    >
      <h1 id="newsletter-title" className="text-2xl font-bold">
        {m.title}
      </h1>
      <p className="leading-relaxed text-stone-700">{m.pageIntro}</p>
      {done ? <Notice tone="done">{m.checkInbox}</Notice> : null}
      {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
      <p className="text-sm text-stone-600">{m.formHint}</p>
      <NewsletterForm
        place="page"
        echo={echo}
        errors={errors}
        more={<CategoryChoices chosen={echo?.categories ?? []} error={errors.categories} />}
      />
    </section>
  );
}
