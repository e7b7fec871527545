import { Form } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { accountButton, confirmFirst, Notice, primaryButton, TextField } from "~/components/account-fields";
import { invitationSchema, roleChangeSchema, SEARCH_MAX, userIdSchema, userSearchSchema } from "~/lib/account-schemas";
import { EMAIL_MAX, USERNAME_MAX } from "~/lib/auth-schemas";
import { ROLES } from "~/lib/constants";
import { formatDay } from "~/lib/dates";
import { accountMessages, newsroomMessages, roleLabels } from "~/lib/newsroom-messages";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireAdmin } from "~/server/accounts/guards.server";
import { inviteMember, sendResetLinkTo } from "~/server/accounts/password-reset.server";
import {
  changeRole,
  deleteAccount,
  listUsers,
  setDisabled,
  setOneTimePassword,
} from "~/server/accounts/user-admin.server";
import { formText, readSmallForm } from "~/server/http/form.server";
import { readForm, type ReadFormOptions } from "~/server/http/read-form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-users";

export const handle = HYDRATE_DOCUMENT;

type Done = "role" | "disabled" | "enabled" | "one-time-password" | "reset-link" | "deleted" | "invited";
type Answer = { done: Done; userId?: string; oneTimePassword?: string };

const DONE_MESSAGES: Record<Done, string> = {
  role: accountMessages.roleChanged,
  disabled: accountMessages.accountDisabledDone,
  enabled: accountMessages.accountEnabledDone,
  "one-time-password": accountMessages.oneTimePasswordShown,
  "reset-link": accountMessages.resetLinkSent,
  deleted: accountMessages.accountDeleted,
  invited: accountMessages.inviteSent,
};

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const admin = await requireAdmin(site.auth, request);
  const { q } = userSearchSchema.parse({ q: url.searchParams.get("q") ?? "" });
  return { users: await listUsers(site.db, q), q, me: admin.id, mailOn: site.mailer !== null };
}

/** A change of the list's rows is refused with one message, shown above the list. */
const LIST_REFUSAL: ReadFormOptions = { message: "first", fields: "none" };

/** One change per request, named by `intent`; a refusal is shown above the list with its status. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const admin = await requireAdmin(site.auth, request);
  const form = await readSmallForm(request);
  const intent = formText(form, "intent");
  return answerForm(async (): Promise<Answer> => {
    if (intent === "invite") {
      const { username, email, role } = await readForm(invitationSchema, form);
      await inviteMember(site.auth, site.resetMailing, admin.name, { name: username, email, role });
      return { done: "invited" };
    }
    if (intent === "role") {
      const { userId, role } = await readForm(roleChangeSchema, form, LIST_REFUSAL);
      await changeRole(site.db, userId, role);
      return { done: "role", userId };
    }
    const { userId } = await readForm(userIdSchema, form, LIST_REFUSAL);
    switch (intent) {
      case "disable":
      case "enable":
        await setDisabled(site.db, admin.id, userId, intent === "disable");
        return { done: intent === "disable" ? "disabled" : "enabled", userId };
      case "one-time-password":
        return {
          done: "one-time-password",
          userId,
          oneTimePassword: await setOneTimePassword(site.auth, site.db, userId),
        };
      case "reset-link":
        await sendResetLinkTo(site.resetMailing, userId);
        return { done: "reset-link", userId };
      case "delete":
        await deleteAccount(site.db, admin.id, userId);
        return { done: "deleted" };
      default:
        throw new AppError("bad-request");
    }
  });
}

/** The one-time password is in the answer: no cache may keep it. */
export function headers() {
  return { "Cache-Control": "no-store" };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/users",
    title: `${accountMessages.usersTitle} | ${siteOf(matches).name}`,
    description: accountMessages.usersTitle,
    noindex: true,
    image: null,
  });
}

export default function Users({ loaderData, actionData }: Route.ComponentProps) {
  const { users, q, me, mailOn } = loaderData;
  const done = actionData && "done" in actionData ? actionData : undefined;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  return (
    <section aria-labelledby="users-title" className="space-y-6">
      <DashboardHeading id="users-title" title={accountMessages.usersTitle} />
      {errors.form && <Notice tone="error">{errors.form}</Notice>}
      {done && (
        <Notice tone="done">
          <p>{DONE_MESSAGES[done.done]}</p>
          {done.oneTimePassword && (
            <p className="mt-2">
              <bdi
                dir="ltr"
                className="rounded bg-white px-2 py-1 font-mono text-lg select-all"
                data-testid="one-time-password"
              >
                {done.oneTimePassword}
              </bdi>
            </p>
          )}
        </Notice>
      )}
      <Form method="get" role="search" className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1">
          <TextField
            name="q"
            type="search"
            label={accountMessages.usersSearchLabel}
            maxLength={SEARCH_MAX}
            defaultValue={q}
            required={false}
          />
        </div>
        <button type="submit" className={primaryButton}>
          {accountMessages.usersSearch}
        </button>
      </Form>
      {users.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-stone-600 ring-1 ring-stone-200">{accountMessages.usersNoMatch}</p>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-lg bg-white ring-1 ring-stone-200" data-testid="users-list">
          {users.map((user) => (
            <li key={user.id} className="space-y-3 p-4" data-testid="user-row" data-email={user.email}>
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <p className="font-bold break-words">{user.name}</p>
                {user.id === me && <span className="text-sm text-stone-500">({accountMessages.you})</span>}
                {user.disabled && (
                  <span className="rounded bg-stone-200 px-2 text-sm font-bold text-stone-700">
                    {accountMessages.accountDisabledBadge}
                  </span>
                )}
                <bdi dir="ltr" className="min-w-0 text-sm break-all text-stone-600">
                  {user.email}
                </bdi>
                <span className="text-sm text-stone-500">
                  <time dateTime={user.createdAt}>{formatDay(user.createdAt)}</time>
                </span>
              </div>
              <div className="flex flex-wrap items-center gap-2">
                <Form method="post" className="flex items-center gap-2">
                  <input type="hidden" name="userId" value={user.id} />
                  <label htmlFor={`role-${user.id}`} className="text-sm font-bold">
                    {accountMessages.userRole}
                  </label>
                  <select
                    id={`role-${user.id}`}
                    name="role"
                    defaultValue={user.role}
                    className="rounded border border-stone-300 bg-white px-2 py-1.5"
                  >
                    {ROLES.map((role) => (
                      <option key={role} value={role}>
                        {roleLabels[role]}
                      </option>
                    ))}
                  </select>
                  <button type="submit" name="intent" value="role" className={accountButton}>
                    {accountMessages.changeRole}
                  </button>
                </Form>
                {user.id !== me && (
                  <Form
                    method="post"
                    onSubmit={user.disabled ? undefined : confirmFirst(accountMessages.confirmDisable)}
                  >
                    <input type="hidden" name="userId" value={user.id} />
                    <button
                      type="submit"
                      name="intent"
                      value={user.disabled ? "enable" : "disable"}
                      className={accountButton}
                    >
                      {user.disabled ? accountMessages.enableAccount : accountMessages.disableAccount}
                    </button>
                  </Form>
                )}
                <Form method="post" onSubmit={confirmFirst(accountMessages.confirmOneTimePassword)}>
                  <input type="hidden" name="userId" value={user.id} />
                  <button type="submit" name="intent" value="one-time-password" className={accountButton}>
                    {accountMessages.oneTimePassword}
                  </button>
                </Form>
                {mailOn && (
                  <Form method="post">
                    <input type="hidden" name="userId" value={user.id} />
                    <button type="submit" name="intent" value="reset-link" className={accountButton}>
                      {accountMessages.sendResetLink}
                    </button>
                  </Form>
                )}
                {user.id !== me && (
                  <Form method="post" onSubmit={confirmFirst(accountMessages.confirmDeleteAccount)}>
                    <input type="hidden" name="userId" value={user.id} />
                    <button type="submit" name="intent" value="delete" className={`${accountButton} text-brand-700`}>
                      {accountMessages.deleteAccount}
                    </button>
                  </Form>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <section
        aria-labelledby="invite-title"
        className="space-y-4 rounded-lg bg-white p-4 ring-1 ring-stone-200 sm:p-6"
      >
        <h2 id="invite-title" className="text-xl font-bold">
          {accountMessages.inviteTitle}
        </h2>
        {mailOn ? (
          <Form method="post" className="grid gap-4 sm:grid-cols-3">
            <TextField
              idPrefix="invite-"
              name="username"
              label={newsroomMessages.username}
              maxLength={USERNAME_MAX}
              error={errors.username}
            />
            <TextField
              idPrefix="invite-"
              name="email"
              type="email"
              label={newsroomMessages.email}
              maxLength={EMAIL_MAX}
              error={errors.email}
            />
            <div>
              <label htmlFor="invite-role" className="mb-1 block font-bold">
                {accountMessages.userRole}
              </label>
              <select
                id="invite-role"
                name="role"
                defaultValue="author"
                className="w-full rounded border border-stone-300 bg-white px-3 py-2"
              >
                {(["author", "editor", "admin"] as const).map((role) => (
                  <option key={role} value={role}>
                    {roleLabels[role]}
                  </option>
                ))}
              </select>
            </div>
            <p className="text-sm text-stone-600 sm:col-span-2">{accountMessages.inviteHint}</p>
            <button type="submit" name="intent" value="invite" className={primaryButton}>
              {accountMessages.inviteSubmit}
            </button>
          </Form>
        ) : (
          <Notice tone="info">
            <p>{accountMessages.mailOff}</p>
            <code dir="ltr" className="mt-2 block text-start font-mono text-sm break-all">
              {accountMessages.mailOffExample}
            </code>
          </Notice>
        )}
      </section>
    </section>
  );
}
