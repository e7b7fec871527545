import { Form } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { accountButton, confirmFirst, Notice, primaryButton } from "~/components/account-fields";
import { categoryLabel } from "~/lib/categories";
import { formatDateTime } from "~/lib/dates";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { newsletterDeskMessages as d } from "~/lib/newsroom-messages";
import { articleIdPath } from "~/lib/news";
import { BRIEF_OPENING_MAX } from "~/lib/newsletter";
import { isAdmin } from "~/lib/permissions";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireEditor } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import {
  eraseSubscriber,
  importSubscribers,
  listSendings,
  nextBrief,
  removeSubscriber,
  saveBrief,
  searchSubscribers,
  sendBriefNow,
  sendTest,
  storyIdOf,
  subscriberCounts,
} from "~/server/newsletter/newsroom.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-newsletter";

export const handle = HYDRATE_DOCUMENT;

const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

/** Editors and admins: the next brief to edit, test, preview and send; the subscribers; each sending's figures. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const user = await requireEditor(site.auth, request);
  const query = (url.searchParams.get("q") ?? "").slice(0, 254);
  const { settings } = await readSiteSettings(site.db);
  const [brief, counts, subscribers, sendings] = await Promise.all([
    nextBrief(site.db, site.clock.now(), settings.newsletterHour),
    subscriberCounts(site.db),
    searchSubscribers(site.db, query),
    listSendings(site.db),
  ]);
  return { brief, counts, subscribers, sendings, query, isAdmin: isAdmin(user), mailOn: site.mailer !== null };
}

/** The operation an editor's button names on the brief's story list, applied to the list the form holds. */
function editedStories(ids: string[], intent: string, added: string): string[] {
  const [verb, at] = intent.split(":");
  const index = Number(at);
  const list = [...ids];
  if (verb === "up" && index > 0) [list[index - 1], list[index]] = [list[index]!, list[index - 1]!];
  if (verb === "down" && index < list.length - 1) [list[index + 1], list[index]] = [list[index]!, list[index + 1]!];
  if (verb === "remove") list.splice(index, 1);
  if (verb === "add" && added.trim()) list.push(storyIdOf(added));
  return list;
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await requireEditor(site.auth, request);
  const form = await readSmallForm(request, IMPORT_MAX_BYTES + 64 * 1024);
  const text = (name: string) => {
    const value = form.get(name);
    return typeof value === "string" ? value : "";
  };
  const intent = text("intent");
  const now = site.clock.now();
  const id = Number(text("id"));
  return answerForm(async () => {
    if (intent === "import") {
      const file = form.get("file");
      if (!(file instanceof File) || file.size === 0)
        throw new AppError("validation", { fields: { file: d.importInvalid } });
      if (file.size > IMPORT_MAX_BYTES) throw new AppError("too-large", { message: d.importTooLarge });
      const { added, skipped } = await importSubscribers(site.db, await file.text(), now);
      return { done: d.importDone.replace("{added}", String(added)).replace("{skipped}", String(skipped)) };
    }
    if (intent === "remove-subscriber") {
      await removeSubscriber(site.db, id, now);
      return { done: d.removed };
    }
    if (intent === "erase") {
      if (!isAdmin(user)) throw new AppError("forbidden", { message: d.adminOnly });
      await eraseSubscriber(site.db, id);
      return { done: d.erased };
    }
    if (!Number.isSafeInteger(id) || id <= 0) throw new AppError("bad-request", { message: d.actionInvalid });
    const storyIds = form.getAll("story").filter((value): value is string => typeof value === "string");
    await saveBrief(
      site.db,
      id,
      { storyIds: editedStories(storyIds, intent, text("add")), opening: text("opening") },
      now,
    );
    if (intent === "test") {
      await sendTest(
        site.db,
        site.mailer,
        { baseUrl: site.config.baseUrl, secret: site.config.authSecret },
        id,
        user.email,
      );
      return { done: d.testSent };
    }
    if (intent === "send-now") {
      await sendBriefNow(site.db, id, now);
      return { done: d.queued };
    }
    return { done: d.saved };
  });
}

export const headers = () => NO_STORE;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/newsletter",
    title: `${d.title} | ${siteOf(matches).name}`,
    description: d.title,
    noindex: true,
    image: null,
  });
}

const number = (n: number) => n.toLocaleString("ar-LB");
const card = "rounded-lg bg-white p-4 ring-1 ring-stone-200";
const STATUS_LABELS = { confirmed: d.confirmed, pending: d.pending, unsubscribed: d.unsubscribed, bounced: d.bounced };

export default function DashboardNewsletter({ loaderData, actionData }: Route.ComponentProps) {
  const { brief, counts, subscribers, sendings, query, isAdmin: admin, mailOn } = loaderData;
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  // A saved change loads the preview again.
  const previewKey = brief ? JSON.stringify([brief.opening, brief.stories.map((story) => story.id)]) : "";
  return (
    <section aria-labelledby="newsletter-title" className="space-y-6">
      <DashboardHeading id="newsletter-title" title={d.title} />
      {done ? <Notice tone="done">{done}</Notice> : null}
      {errors.form ? <Notice tone="error">{errors.form}</Notice> : null}
      {!mailOn ? <Notice tone="info">{d.mailOff}</Notice> : null}

      <div className={card} data-testid="next-brief">
        <h2 className="mb-1 text-lg font-bold">{d.nextBrief}</h2>
        {brief ? (
          <>
            <p className="mb-4 text-sm text-stone-600">{`${d.goesAt}: ${formatDateTime(brief.scheduledAt)}`}</p>
            <Form method="post" className="space-y-4">
              <input type="hidden" name="id" value={brief.id} />
              <label htmlFor="opening" className="block font-bold">
                {d.opening}
              </label>
              <textarea
                id="opening"
                name="opening"
                rows={3}
                maxLength={BRIEF_OPENING_MAX}
                defaultValue={brief.opening}
                className="w-full rounded border border-stone-300 p-2"
                aria-invalid={errors.opening ? true : undefined}
              />
              {errors.opening ? <p className="text-sm font-bold text-brand-700">{errors.opening}</p> : null}
              <h3 className="font-bold">{d.stories}</h3>
              <ol className="divide-y divide-stone-200 rounded border border-stone-200" data-testid="brief-stories">
                {brief.stories.map((story, index) => (
                  <li key={story.id} className="flex flex-wrap items-center gap-2 p-2">
                    <input type="hidden" name="story" value={story.id} />
                    <span className="w-6 text-center font-bold text-stone-500">{number(index + 1)}</span>
                    <a
                      href={articleIdPath(story.id)}
                      className="min-w-0 flex-1 basis-48 break-words text-brand-700 hover:underline"
                    >
                      {story.title}
                    </a>
                    <span className="text-xs text-stone-500">{categoryLabel(story.category)}</span>
                    <span className="flex gap-1">
                      <button
                        type="submit"
                        name="intent"
                        value={`up:${index}`}
                        className={accountButton}
                        disabled={index === 0}
                      >
                        {d.moveUp}
                      </button>
                      <button
                        type="submit"
                        name="intent"
                        value={`down:${index}`}
                        className={accountButton}
                        disabled={index === brief.stories.length - 1}
                      >
                        {d.moveDown}
                      </button>
                      <button type="submit" name="intent" value={`remove:${index}`} className={accountButton}>
                        {d.remove}
                      </button>
                    </span>
                  </li>
                ))}
              </ol>
              <div className="flex flex-wrap items-end gap-2">
                <label className="min-w-0 flex-1 basis-60">
                  <span className="mb-1 block text-sm font-bold">{d.addStory}</span>
                  <input name="add" dir="ltr" className="w-full rounded border border-stone-300 px-2 py-1.5" />
                </label>
                <button type="submit" name="intent" value="add" className={accountButton}>
                  {d.add}
                </button>
              </div>
              {errors.story ? <p className="text-sm font-bold text-brand-700">{errors.story}</p> : null}
              <div className="flex flex-wrap gap-2 border-t border-stone-200 pt-4">
                <button type="submit" name="intent" value="save" className={primaryButton}>
                  {d.save}
                </button>
                <button type="submit" name="intent" value="test" className={accountButton} disabled={!mailOn}>
                  {d.sendTest}
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="send-now"
                  className={accountButton}
                  disabled={!mailOn}
                  onClick={(event) => confirmFirst(d.sendNowConfirm)(event)}
                >
                  {d.sendNow}
                </button>
              </div>
            </Form>
            <h3 className="mt-6 mb-2 font-bold">{d.preview}</h3>
            <div className="flex flex-wrap items-start gap-4" data-testid="brief-preview">
              <figure>
                <figcaption className="mb-1 text-sm text-stone-600">{d.previewPhone}</figcaption>
                <iframe
                  key={previewKey}
                  title={`${d.preview} ${d.previewPhone}`}
                  src={`/dashboard/newsletter/preview?id=${brief.id}`}
                  className="h-[640px] w-[375px] max-w-full rounded border border-stone-300 bg-white"
                />
              </figure>
              <figure className="min-w-0 flex-1">
                <figcaption className="mb-1 text-sm text-stone-600">{d.previewDesktop}</figcaption>
                <iframe
                  key={previewKey}
                  title={`${d.preview} ${d.previewDesktop}`}
                  src={`/dashboard/newsletter/preview?id=${brief.id}&width=desktop`}
                  className="h-[640px] w-full min-w-0 rounded border border-stone-300 bg-white"
                />
              </figure>
            </div>
          </>
        ) : (
          <p className="text-stone-600">{d.noBrief}</p>
        )}
      </div>

      <div className={card} data-testid="newsletter-subscribers">
        <h2 className="mb-3 text-lg font-bold">{d.subscribers}</h2>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {(["confirmed", "pending", "unsubscribed", "bounced"] as const).map((status) => (
            <div key={status}>
              <dt className="text-sm text-stone-500">{STATUS_LABELS[status]}</dt>
              <dd className="text-xl font-bold" data-count={status}>
                {number(counts[status])}
              </dd>
            </div>
          ))}
        </dl>
        <div className="mt-4 flex flex-wrap items-end gap-3">
          <Form method="get" className="flex min-w-0 flex-1 basis-64 gap-2">
            <label htmlFor="q" className="sr-only">
              {d.search}
            </label>
            <input
              id="q"
              name="q"
              type="search"
              dir="ltr"
              defaultValue={query}
              placeholder={d.search}
              className="min-w-0 flex-1 rounded border border-stone-300 px-2 py-1.5"
            />
            <button type="submit" className={accountButton}>
              {d.searchButton}
            </button>
          </Form>
          <a href="/dashboard/newsletter/subscribers.csv" className={accountButton} download>
            {d.exportCsv}
          </a>
        </div>
        <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-wrap items-end gap-2">
          <label className="min-w-0 flex-1 basis-64">
            <span className="mb-1 block text-sm font-bold">{d.importCsv}</span>
            <input name="file" type="file" accept=".csv,text/csv" className="block w-full text-sm" />
            <span className="mt-1 block text-xs text-stone-500">{d.importHint}</span>
          </label>
          <button type="submit" name="intent" value="import" className={accountButton}>
            {d.importButton}
          </button>
        </Form>
        {errors.file ? <p className="mt-1 text-sm font-bold text-brand-700">{errors.file}</p> : null}
        {subscribers.length === 0 ? (
          <p className="mt-4 text-stone-600">{d.noSubscribers}</p>
        ) : (
          <div className="mt-4 overflow-x-auto">
            <table className="w-full text-sm" data-testid="subscriber-rows">
              <thead>
                <tr className="border-b border-stone-200 text-start text-stone-500">
                  <th className="p-2 text-start">{d.address}</th>
                  <th className="p-2 text-start">{d.status}</th>
                  <th className="p-2 text-start">{d.choices}</th>
                  <th className="p-2" />
                </tr>
              </thead>
              <tbody>
                {subscribers.map((row) => (
                  <tr key={row.id} className="border-b border-stone-100">
                    <td className="p-2 break-all" dir="ltr">
                      {row.email}
                    </td>
                    <td className="p-2 whitespace-nowrap">
                      {STATUS_LABELS[row.status]}
                      {row.imported ? <span className="ms-1 text-xs text-stone-500">{`(${d.imported})`}</span> : null}
                    </td>
                    <td className="p-2">
                      {[row.brief ? d.brief : null, row.breaking ? d.breaking : null, ...row.categories]
                        .filter(Boolean)
                        .join("، ")}
                    </td>
                    <td className="p-2">
                      <Form method="post" className="flex justify-end gap-1">
                        <input type="hidden" name="id" value={row.id} />
                        {row.status !== "unsubscribed" ? (
                          <button type="submit" name="intent" value="remove-subscriber" className={accountButton}>
                            {d.removeSubscriber}
                          </button>
                        ) : null}
                        {admin ? (
                          <button
                            type="submit"
                            name="intent"
                            value="erase"
                            className={accountButton}
                            onClick={(event) => confirmFirst(d.eraseConfirm)(event)}
                          >
                            {d.erase}
                          </button>
                        ) : null}
                      </Form>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>

      <div className={card} data-testid="newsletter-sendings">
        <h2 className="mb-3 text-lg font-bold">{d.sendings}</h2>
        {sendings.length === 0 ? (
          <p className="text-stone-600">{d.noSendings}</p>
        ) : (
          <div className="overflow-x-auto">
            <table className="w-full text-sm">
              <thead>
                <tr className="border-b border-stone-200 text-stone-500">
                  <th className="p-2 text-start">{d.stories}</th>
                  {[d.recipients, d.sent, d.refused, d.bouncedCount, d.unsubscribedAfter, d.visits].map((label) => (
                    <th key={label} className="p-2 text-start">
                      {label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {sendings.map((sending) => (
                  <tr key={sending.id} className="border-b border-stone-100" data-sending={sending.id}>
                    <td className="p-2">
                      <span className="block font-bold">{sending.kind === "brief" ? d.kindBrief : d.kindBreaking}</span>
                      <span className="block text-stone-600">{sending.subject ?? sending.day}</span>
                      {sending.status !== "sent" ? (
                        <span className="text-xs text-stone-500">{d.sendingNow}</span>
                      ) : null}
                    </td>
                    {[
                      sending.recipients,
                      sending.sent,
                      sending.refused,
                      sending.bounced,
                      sending.unsubscribedAfter,
                      sending.visits,
                    ].map((n, i) => (
                      <td key={i} className="p-2 font-bold">
                        {number(n)}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}
