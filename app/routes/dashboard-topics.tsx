import { Form } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { accountButton, confirmFirst, Notice, primaryButton } from "~/components/account-fields";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { topicMessages } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { topicActionSchema } from "~/lib/topic-schema";
import { TOPIC_DESCRIPTION_MAX, TOPIC_NAME_MAX, topicPath } from "~/lib/topics";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireAdmin } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { readForm } from "~/server/http/read-form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import {
  createNamedTopic,
  deleteTopic,
  describeTopic,
  listTopicsWithCounts,
  mergeTopics,
  renameTopic,
} from "~/server/news/topic-admin.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-topics";

export const handle = HYDRATE_DOCUMENT;

/** Admins only: every topic with its article count, to describe, rename, merge or delete; and a new one. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await requireAdmin(site.auth, request);
  return { topics: await listTopicsWithCounts(site.db) };
}

/** One change per request, named by `intent`; a refusal is shown above the list with its status. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireAdmin(site.auth, request);
  const form = await readSmallForm(request);
  return answerForm(async () => {
    // One message, shown above the list.
    const input = await readForm(topicActionSchema, form, { message: "first", fields: "none" });
    switch (input.intent) {
      case "create":
        return {
          done: topicMessages.created,
          topic: await createNamedTopic(site.db, input.name, input.description, site.clock.now()),
        };
      case "describe":
        return {
          done: topicMessages.described,
          topic: await describeTopic(site.db, input.id, input.description, site.clock.now()),
        };
      case "rename":
        return {
          done: topicMessages.renamed,
          topic: await renameTopic(site.db, input.id, input.name, site.clock.now()),
        };
      case "merge":
        return { done: topicMessages.merged, topic: await mergeTopics(site.db, input.id, input.into) };
      case "delete":
        return { done: topicMessages.deleted, topic: await deleteTopic(site.db, input.id) };
    }
  });
}

export const headers = () => NO_STORE;

export function meta({ matches }: Route.MetaArgs) {
  const title = topicMessages.dashboardTitle;
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/topics",
    title: `${title} | ${siteOf(matches).name}`,
    description: title,
    noindex: true,
    image: null,
  });
}

const field = "min-w-0 flex-1 rounded border border-stone-300 bg-white px-2 py-1.5";

export default function Topics({ loaderData, actionData }: Route.ComponentProps) {
  const { topics } = loaderData;
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  return (
    <section aria-labelledby="topics-title" className="space-y-6">
      <DashboardHeading id="topics-title" title={topicMessages.dashboardTitle} />
      {refusal && <Notice tone="error">{Object.values(errors)[0] ?? refusal.message}</Notice>}
      {done && <Notice tone="done">{done}</Notice>}
      <Form
        method="post"
        className="space-y-3 rounded-lg bg-white p-4 ring-1 ring-stone-200"
        data-testid="topic-create"
      >
        <input type="hidden" name="intent" value="create" />
        <h2 className="font-bold">{topicMessages.create}</h2>
        <div className="space-y-1">
          <label className="block text-sm font-bold" htmlFor="new-topic-name">
            {topicMessages.createName}
          </label>
          <input id="new-topic-name" name="name" required maxLength={TOPIC_NAME_MAX} className={`${field} w-full`} />
        </div>
        <div className="space-y-1">
          <label className="block text-sm font-bold" htmlFor="new-topic-description">
            {topicMessages.description}
          </label>
          <textarea
            id="new-topic-description"
            name="description"
            rows={2}
            maxLength={TOPIC_DESCRIPTION_MAX}
            aria-describedby="new-topic-description-hint"
            className={`${field} w-full`}
          />
          <p id="new-topic-description-hint" className="text-sm text-stone-500">
            {topicMessages.descriptionHint}
          </p>
        </div>
        <button type="submit" className={primaryButton}>
          {topicMessages.create}
        </button>
      </Form>
      {topics.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-stone-600 ring-1 ring-stone-200">{topicMessages.noTopics}</p>
      ) : (
        <ul className="divide-y divide-stone-200 rounded-lg bg-white ring-1 ring-stone-200" data-testid="topics-list">
          {topics.map((topic) => (
            <li key={topic.id} className="space-y-3 p-4" data-testid="topic-row" data-slug={topic.slug}>
              <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
                <a href={topicPath(topic.slug)} className="font-bold break-words text-brand-700 hover:underline">
                  {topic.name}
                </a>
                <span className="text-sm text-stone-500" data-testid="topic-count">
                  {topicMessages.articleCount}: {topic.articles.toLocaleString("ar-LB")}
                </span>
              </div>
              <div className="grid gap-3 md:grid-cols-2">
                <Form method="post" className="flex flex-wrap items-center gap-2">
                  <input type="hidden" name="intent" value="rename" />
                  <input type="hidden" name="id" value={topic.id} />
                  <label className="sr-only" htmlFor={`rename-${topic.id}`}>
                    {topicMessages.renameTo}
                  </label>
                  <input
                    id={`rename-${topic.id}`}
                    name="name"
                    required
                    maxLength={TOPIC_NAME_MAX}
                    defaultValue={topic.name}
                    className={field}
                  />
                  <button type="submit" className={accountButton}>
                    {topicMessages.rename}
                  </button>
                </Form>
                {topics.length > 1 && (
                  <Form method="post" className="flex flex-wrap items-center gap-2">
                    <input type="hidden" name="intent" value="merge" />
                    <input type="hidden" name="id" value={topic.id} />
                    <label className="text-sm font-bold" htmlFor={`merge-${topic.id}`}>
                      {topicMessages.mergeInto}
                    </label>
                    <select id={`merge-${topic.id}`} name="into" required defaultValue="" className={field}>
                      <option value="" disabled>
                        {topicMessages.mergeChoose}
                      </option>
                      {topics
                        .filter((other) => other.id !== topic.id)
                        .map((other) => (
                          <option key={other.id} value={other.id}>
                            {other.name}
                          </option>
                        ))}
                    </select>
                    <button type="submit" className={accountButton}>
                      {topicMessages.merge}
                    </button>
                  </Form>
                )}
              </div>
              <Form method="post" className="flex flex-wrap items-end gap-2">
                <input type="hidden" name="intent" value="describe" />
                <input type="hidden" name="id" value={topic.id} />
                <div className="min-w-0 flex-1 space-y-1">
                  <label className="block text-sm font-bold" htmlFor={`describe-${topic.id}`}>
                    {topicMessages.description}
                  </label>
                  <textarea
                    id={`describe-${topic.id}`}
                    name="description"
                    rows={2}
                    maxLength={TOPIC_DESCRIPTION_MAX}
                    defaultValue={topic.description ?? ""}
                    className={`${field} w-full`}
                  />
                </div>
                <button type="submit" className={accountButton}>
                  {topicMessages.describe}
                </button>
              </Form>
              <Form method="post" onSubmit={confirmFirst(topicMessages.confirmDelete)}>
                <input type="hidden" name="intent" value="delete" />
                <input type="hidden" name="id" value={topic.id} />
                <button type="submit" className={`${accountButton} text-brand-700`}>
                  {topicMessages.delete}
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
