import { useState } from "react";
import { Form, redirect, useNavigation } from "react-router";
import { EMAIL_MAX, PASSWORD_MAX, signInSchema, signUpSchema, USERNAME_MAX } from "~/lib/auth-schemas";
import { safeRedirect } from "~/lib/same-origin-path";
import { MIN_PASSWORD_LENGTH } from "~/lib/constants";
import { accountMessages, authErrors, newsroomMessages, type AuthErrorCode } from "~/lib/newsroom-messages";
import { errorOf } from "~/lib/error-body";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { signIn, signUp } from "~/server/accounts/accounts.server";
import { getCurrentUser } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { readForm } from "~/server/http/read-form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/autenction";

export const handle = HYDRATE_DOCUMENT;

type Mode = "signin" | "signup";

/** The catalogue entry a refusal names, if it names one. */
function catalogueEntry(reason: string | undefined) {
  return reason !== undefined && Object.hasOwn(authErrors, reason) ? authErrors[reason as AuthErrorCode] : undefined;
}

function modeOf(value: FormDataEntryValue | string | null): Mode {
  return value === "signup" ? "signup" : "signin";
}

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"));
  if (await getCurrentUser(site.auth, request)) throw redirect(redirectTo);
  return { redirectTo, mode: modeOf(url.searchParams.get("mode")) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const form = await readSmallForm(request);
  const mode = modeOf(form.get("intent"));
  const redirectTo = safeRedirect(form.get("redirectTo"));
  // The page's alert box tells the catalogue's refusals; the database failing is the error page.
  return answerForm(
    async () => {
      let cookies: string[];
      if (mode === "signup") {
        const input = await readForm(signUpSchema, form);
        cookies = await signUp(site.accounts, request, context.get(clientIpContext), input);
      } else {
        const input = await readForm(signInSchema, form);
        cookies = await signIn(site.accounts, request, context.get(clientIpContext), input);
      }
      const headers = new Headers();
      for (const cookie of cookies) headers.append("Set-Cookie", cookie);
      return redirect(redirectTo, { headers });
    },
    { echo: { mode }, passOn: ["unavailable", "storage-full"] },
  );
}

/** A refused attempt says when to try again (Retry-After). */
export function headers({ actionHeaders }: Route.HeadersArgs) {
  return actionHeaders;
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/autenction",
    title: `${newsroomMessages.signInTitle} | ${siteOf(matches).name}`,
    description: newsroomMessages.authDescription,
    noindex: true,
  });
}

function Field(props: {
  name: string;
  label: string;
  type: string;
  maxLength: number;
  error?: string;
  autoComplete: string;
  minLength?: number;
  hint?: string;
}) {
  const errorId = `${props.name}-error`;
  return (
    <div>
      <label htmlFor={props.name} className="mb-1 block font-bold">
        {props.label}
      </label>
      <input
        id={props.name}
        name={props.name}
        type={props.type}
        required
        maxLength={props.maxLength}
        minLength={props.minLength}
        autoComplete={props.autoComplete}
        dir={props.type === "email" || props.type === "password" ? "ltr" : undefined}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? errorId : undefined}
        className="w-full rounded border border-stone-300 bg-white px-3 py-2 text-start aria-invalid:border-brand-600"
      />
      {props.hint && !props.error && <p className="mt-1 text-sm text-stone-500">{props.hint}</p>}
      {props.error && (
        <p id={errorId} className="mt-1 text-sm font-bold text-brand-700">
          {props.error}
        </p>
      )}
    </div>
  );
}

export default function AuthPage({ loaderData, actionData }: Route.ComponentProps) {
  const [mode, setMode] = useState<Mode>(actionData?.mode ?? loaderData.mode);
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formAction?.startsWith("/autenction") === true;
  const refusal = actionData?.mode === mode ? errorOf(actionData) : null;
  const fieldErrors = refusal?.fields;
  const entry = catalogueEntry(refusal?.reason);
  const signup = mode === "signup";

  return (
    <section
      className="mx-auto max-w-md rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-8"
      aria-labelledby="auth-title"
    >
      <h1 id="auth-title" className="mb-6 text-center text-2xl font-bold">
        {signup ? newsroomMessages.signUpTitle : newsroomMessages.signInTitle}
      </h1>
      <Form method="post" className="space-y-4" key={mode} noValidate={false}>
        <input type="hidden" name="intent" value={mode} />
        <input type="hidden" name="redirectTo" value={loaderData.redirectTo} />
        {signup && (
          <Field
            name="username"
            label={newsroomMessages.username}
            type="text"
            maxLength={USERNAME_MAX}
            autoComplete="username"
            error={fieldErrors?.username}
          />
        )}
        <Field
          name="email"
          label={newsroomMessages.email}
          type="email"
          maxLength={EMAIL_MAX}
          autoComplete="email"
          error={fieldErrors?.email}
        />
        <Field
          name="password"
          label={newsroomMessages.password}
          type="password"
          maxLength={PASSWORD_MAX}
          autoComplete={signup ? "new-password" : "current-password"}
          minLength={signup ? MIN_PASSWORD_LENGTH : undefined}
          hint={signup ? newsroomMessages.passwordHint : undefined}
          error={fieldErrors?.password}
        />
        {entry && (
          <div
            role="alert"
            className="rounded border border-brand-600/30 bg-brand-50 p-3 text-brand-800"
            data-testid="auth-error"
          >
            <p className="font-bold">{entry.arabic}</p>
            <p lang="en" dir="ltr" className="mt-1 text-start text-sm">
              {entry.catalogue}
            </p>
          </div>
        )}
        <button
          type="submit"
          disabled={busy}
          className="flex w-full items-center justify-center gap-2 rounded bg-brand-600 py-2.5 font-bold text-white hover:bg-brand-700 disabled:opacity-70"
        >
          {busy && (
            <span className="size-4 animate-spin rounded-full border-2 border-white border-t-transparent" aria-hidden />
          )}
          {busy
            ? signup
              ? newsroomMessages.signingUp
              : newsroomMessages.signingIn
            : signup
              ? newsroomMessages.signUpSubmit
              : newsroomMessages.signInSubmit}
        </button>
      </Form>
      {!signup && (
        <p className="mt-4 text-center">
          <a href="/reset-password" className="font-bold text-brand-700 hover:underline">
            {accountMessages.forgotPassword}
          </a>
        </p>
      )}
      <p className="mt-6 text-center">
        {signup ? newsroomMessages.haveAccount : newsroomMessages.haveNoAccount}{" "}
        <a
          href={`/autenction?mode=${signup ? "signin" : "signup"}${loaderData.redirectTo !== "/" ? `&redirectTo=${encodeURIComponent(loaderData.redirectTo)}` : ""}`}
          onClick={(event) => {
            event.preventDefault();
            setMode(signup ? "signin" : "signup");
          }}
          className="font-bold text-brand-700 hover:underline"
        >
          {signup ? newsroomMessages.signInTitle : newsroomMessages.signUpTitle}
        </a>
      </p>
    </section>
  );
}
