import { Link } from "react-router";
import { Notice, primaryButton } from "~/components/account-fields";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { newsletterMessages as m } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { readSmallForm, formText } from "~/server/http/form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { confirmSubscription } from "~/server/newsletter/subscribers.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/newsletter-confirm";

/** The confirmation link opens a page whose button confirms: a mail scanner that follows links confirms nothing. */
export function loader({ url }: Route.LoaderArgs) {
  return { token: (url.searchParams.get("t") ?? "").slice(0, 500) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const token = formText(await readSmallForm(request), "t") ?? "";
  return answerForm(async () => {
    await confirmSubscription(site.db, site.config.authSecret, token, site.clock.now());
    return { done: true as const };
  });
}

export const headers = () => NO_STORE;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/newsletter/confirm",
    title: `${m.title} | ${siteOf(matches).name}`,
    description: m.pageIntro,
    noindex: true,
    image: null,
  });
}

export default function NewsletterConfirm({ loaderData, actionData }: Route.ComponentProps) {
  const refusal = errorOf(actionData);
  const done = actionData && "done" in actionData;
  return (
    <section
      className="mx-auto max-w-xl space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8"
      aria-labelledby="confirm-title"
    >
      <h1 id="confirm-title" className="text-2xl font-bold">
        {done ? m.confirmedTitle : refusal ? m.linkInvalidTitle : m.title}
      </h1>
      {done ? (
        <Notice tone="done">{m.confirmedText}</Notice>
      ) : refusal ? (
        <>
          <Notice tone="error">{formMessagesOf(refusal).form ?? m.linkInvalid}</Notice>
          <Link to="/newsletter" className="font-bold text-brand-700 hover:underline">
            {m.title}
          </Link>
        </>
      ) : (
        <form method="post" className="space-y-4">
          <input type="hidden" name="t" value={loaderData.token} />
          <button type="submit" className={primaryButton} data-testid="confirm-subscription">
            {m.confirmButton}
          </button>
        </form>
      )}
    </section>
  );
}
