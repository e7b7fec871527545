import { Form, Link } from "react-router";
import { Notice, primaryButton, TextField } from "~/components/account-fields";
import { forgotPasswordSchema, resetPasswordSchema, resetTokenOf } from "~/lib/account-schemas";
import { EMAIL_MAX, PASSWORD_MAX } from "~/lib/auth-schemas";
import { MIN_PASSWORD_LENGTH } from "~/lib/constants";
import { accountMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { requestResetLink, resetWithToken } from "~/server/accounts/password-reset.server";
import { formText, readSmallForm } from "~/server/http/form.server";
import { readForm } from "~/server/http/read-form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { afterResponseContext, clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/reset-password";

/** With a token (from a reset or invitation mail): choose a password. Without: ask for a link. */
export function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  return { token: resetTokenOf(url.searchParams.get("token")), mailOn: site.mailer !== null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const form = await readSmallForm(request);
  return answerForm(async () => {
    if (formText(form, "intent") === "reset") {
      const { token, newPassword } = await readForm(resetPasswordSchema, form);
      await resetWithToken(site.auth, token, newPassword);
      return { done: "reset" as const };
    }
    const { email } = await readForm(forgotPasswordSchema, form);
    // Without mail the page already says whom to ask; a request made anyway gets that page again.
    if (site.mailer === null) return { done: "mail-off" as const };
    await requestResetLink(site.resetMailing, context.get(clientIpContext), email, context.get(afterResponseContext));
    return { done: "sent" as const };
  });
}

/** A refused request says when to ask again (Retry-After). */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/reset-password",
    title: `${accountMessages.forgotTitle} | ${siteOf(matches).name}`,
    description: accountMessages.forgotHint,
    noindex: true,
    image: null,
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { token, mailOn } = loaderData;
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  const box = "mx-auto max-w-md space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8";
  if (done === "reset") {
    return (
      <section className={box}>
        <Notice tone="done">{accountMessages.resetDone}</Notice>
        <Link to="/autenction" className="font-bold text-brand-700 hover:underline">
          {newsroomMessages.signInTitle}
        </Link>
      </section>
    );
  }
  if (token) {
    return (
      <section className={box} aria-labelledby="reset-title">
        <h1 id="reset-title" className="text-center text-2xl font-bold">
          {accountMessages.resetTitle}
        </h1>
        {errors.form && <Notice tone="error">{errors.form}</Notice>}
        <Form method="post" className="space-y-4">
          <input type="hidden" name="token" value={token} />
          <TextField
            name="newPassword"
            type="password"
            label={accountMessages.newPassword}
            maxLength={PASSWORD_MAX}
            minLength={MIN_PASSWORD_LENGTH}
            autoComplete="new-password"
            error={errors.newPassword ?? errors.token}
          />
          <p className="text-sm text-stone-500">{newsroomMessages.passwordHint}</p>
          <button type="submit" name="intent" value="reset" className={`${primaryButton} w-full`}>
            {accountMessages.resetSubmit}
          </button>
        </Form>
      </section>
    );
  }
  return (
    <section className={box} aria-labelledby="forgot-title">
      <h1 id="forgot-title" className="text-center text-2xl font-bold">
        {accountMessages.forgotTitle}
      </h1>
      {!mailOn ? (
        <Notice tone="info">{accountMessages.forgotMailOff}</Notice>
      ) : done === "sent" ? (
        <Notice tone="done">{accountMessages.forgotSent}</Notice>
      ) : (
        <>
          <p className="text-stone-600">{accountMessages.forgotHint}</p>
          {errors.form && <Notice tone="error">{errors.form}</Notice>}
          <Form method="post" className="space-y-4">
            <TextField
              name="email"
              type="email"
              label={newsroomMessages.email}
              maxLength={EMAIL_MAX}
              autoComplete="email"
              error={errors.email}
            />
            <button type="submit" name="intent" value="forgot" className={`${primaryButton} w-full`}>
              {accountMessages.forgotSubmit}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}
