import { Form, redirect } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { accountButton, Notice, primaryButton, TextField } from "~/components/account-fields";
import { changePasswordSchema, renameSchema } from "~/lib/account-schemas";
import { PASSWORD_MAX, USERNAME_MAX } from "~/lib/auth-schemas";
import { MIN_PASSWORD_LENGTH } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { accountMessages, newsroomMessages, roleLabels, storyMessages } from "~/lib/newsroom-messages";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { isNewsroomMember, isAdmin } from "~/lib/permissions";
import { authorProfileSchema } from "~/lib/author-profile";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireUser } from "~/server/accounts/guards.server";
import {
  changeOwnPassword,
  openSessionCount,
  renameSelf,
  signOutOtherSessions,
} from "~/server/accounts/own-account.server";
import { formText, readSmallForm } from "~/server/http/form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import { AuthorProfileForm } from "~/components/author-profile";
import {
  PROFILE_FORM_LIMITS,
  PROFILE_FORM_READING,
  readAuthorProfile,
  saveAuthorProfile,
} from "~/server/accounts/author-profile.server";
import { readForm } from "~/server/http/read-form.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import type { Route } from "./+types/dashboard-account";

export const handle = HYDRATE_DOCUMENT;

type Intent = "rename" | "password" | "sign-out-others" | "profile";

/** The author page's form is the one multipart form here (it carries a photo). */
const isMultipart = (request: Request) =>
  (request.headers.get("content-type") ?? "").toLowerCase().startsWith("multipart/form-data");

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const user = await requireUser(site.auth, request);
  const sessions = await openSessionCount(site.db, user.id);
  const passwordChanged = url.searchParams.get("done") === "password";
  // Readers have no author page: only the newsroom's members edit one.
  const profile = isNewsroomMember(user) ? await readAuthorProfile(site.db, user.id) : null;
  return {
    name: user.name,
    email: user.email,
    role: user.role,
    otherSessions: Math.max(0, sessions - 1),
    passwordChanged,
    profile,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await requireUser(site.auth, request);
  if (isMultipart(request)) {
    return answerForm(
      async () => {
        if (!isNewsroomMember(user)) throw new AppError("forbidden");
        await withSubmission(request, site.newsroom.stagingDir, PROFILE_FORM_LIMITS, async (form) =>
          saveAuthorProfile(
            site.db,
            site.media,
            user.id,
            await readForm(authorProfileSchema, form, PROFILE_FORM_READING),
            form.files,
          ),
        );
        return { intent: "profile" as const, done: true };
      },
      { echo: { intent: "profile" as const } },
    );
  }
  const form = await readSmallForm(request);
  const asked = formText(form, "intent");
  // An unknown intent's refusal shows above the first form.
  const intent: Intent = asked === "password" || asked === "sign-out-others" ? asked : "rename";
  return answerForm(
    async () => {
      if (asked === "rename") {
        const { username } = await readForm(renameSchema, form);
        await renameSelf(site.auth, request, username);
        return { intent, done: true };
      }
      if (asked === "password") {
        const cookies = await changeOwnPassword(
          site.auth,
          site.db,
          request,
          await readForm(changePasswordSchema, form),
        );
        const headers = new Headers();
        for (const cookie of cookies) headers.append("Set-Cookie", cookie);
        // A redirect: this request's cookie names a session that just ended, so the page is loaded with the new one.
        return redirect("/dashboard/account?done=password", { headers });
      }
      if (asked === "sign-out-others") {
        await signOutOtherSessions(site.auth, request);
        return { intent, done: true };
      }
      throw new AppError("bad-request");
    },
    { echo: { intent } },
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/account",
    title: `${accountMessages.accountTitle} | ${siteOf(matches).name}`,
    description: accountMessages.accountTitle,
    noindex: true,
    image: null,
  });
}

const DONE: Record<Intent, string> = {
  rename: accountMessages.nameSaved,
  password: accountMessages.passwordChanged,
  "sign-out-others": accountMessages.signedOutOthers,
  profile: storyMessages.profileSaved,
};

const card = "space-y-4 rounded-lg bg-white p-4 ring-1 ring-stone-200 sm:p-6";

export default function Account({ loaderData, actionData }: Route.ComponentProps) {
  const { name, email, role, otherSessions, passwordChanged, profile } = loaderData;
  const answer = (intent: Intent) => (actionData?.intent === intent ? actionData : undefined);
  const done = (intent: Intent) => {
    const answered = answer(intent);
    return answered ? "done" in answered : intent === "password" && passwordChanged;
  };
  // The password form shows a refusal under the current password: the one field a wrong answer is about.
  const errors = (intent: Intent) => {
    const refusal = errorOf(answer(intent));
    return refusal ? formMessagesOf(refusal, intent === "password" ? "currentPassword" : "form") : {};
  };
  const outcome = (intent: Intent) => {
    if (done(intent)) return <Notice tone="done">{DONE[intent]}</Notice>;
    const refused = errors(intent).form;
    return refused ? <Notice tone="error">{refused}</Notice> : null;
  };
  return (
    <section aria-labelledby="account-title" className="mx-auto max-w-2xl space-y-6">
      <DashboardHeading
        id="account-title"
        title={accountMessages.accountTitle}
        links={[
          isAdmin({ role }) && { to: "/dashboard/users", label: accountMessages.usersTitle },
          isNewsroomMember({ role }) && { to: "/dashboard", label: messages.dashboard },
        ]}
      />
      <p className="text-stone-600">{accountMessages.accountIntro}</p>
      <p className="flex flex-wrap gap-x-3 text-sm text-stone-600">
        <bdi dir="ltr" className="break-all">
          {email}
        </bdi>
        <span>
          {accountMessages.userRole}: {roleLabels[role]}
        </span>
      </p>

      <Form method="post" className={card} aria-labelledby="name-title">
        <h2 id="name-title" className="text-xl font-bold">
          {accountMessages.displayName}
        </h2>
        {outcome("rename")}
        <TextField
          name="username"
          label={newsroomMessages.username}
          maxLength={USERNAME_MAX}
          defaultValue={name}
          autoComplete="nickname"
          error={errors("rename").username}
        />
        <button type="submit" name="intent" value="rename" className={primaryButton}>
          {accountMessages.saveName}
        </button>
      </Form>

      {profile && (
        <AuthorProfileForm profile={profile} errors={errors("profile")} done={done("profile")} className={card} />
      )}

      <Form method="post" className={card} aria-labelledby="password-title">
        <h2 id="password-title" className="text-xl font-bold">
          {accountMessages.changePasswordTitle}
        </h2>
        {outcome("password")}
        <input type="text" name="email" autoComplete="username" value={email} readOnly hidden />
        <TextField
          name="currentPassword"
          type="password"
          label={accountMessages.currentPassword}
          maxLength={PASSWORD_MAX}
          autoComplete="current-password"
          error={errors("password").currentPassword}
        />
        <TextField
          name="newPassword"
          type="password"
          label={accountMessages.newPassword}
          maxLength={PASSWORD_MAX}
          minLength={MIN_PASSWORD_LENGTH}
          autoComplete="new-password"
          error={errors("password").newPassword}
        />
        <p className="text-sm text-stone-500">{newsroomMessages.passwordHint}</p>
        <button type="submit" name="intent" value="password" className={primaryButton}>
          {accountMessages.changePassword}
        </button>
      </Form>

      <Form method="post" className={card} aria-labelledby="sessions-title">
        <h2 id="sessions-title" className="text-xl font-bold">
          {accountMessages.otherSessionsTitle}
        </h2>
        {outcome("sign-out-others")}
        <p>
          {accountMessages.otherSessionsCount}:{" "}
          <span data-testid="other-sessions">{otherSessions.toLocaleString("ar-LB")}</span>
        </p>
        <button type="submit" name="intent" value="sign-out-others" className={accountButton}>
          {accountMessages.signOutOthers}
        </button>
      </Form>
    </section>
  );
}
