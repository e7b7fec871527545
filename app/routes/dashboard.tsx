import { randomUUID } from "node:crypto";
import { Link, redirect } from "react-router";
import { categoryLabel } from "~/lib/categories";
import { formatDay } from "~/lib/dates";
import { messages } from "~/lib/messages";
import { baseUrlOf, pageMeta } from "~/lib/seo";
import { articlePath } from "~/lib/news";
import { pageFromUrl } from "~/lib/pagination";
import { CopyShortLinkButton, DeleteArticleButton, EditArticleLink } from "~/components/admin-actions";
import { ArticleForm } from "~/components/article-form";
import { ReviewQueue, SentBackList } from "~/components/review";
import { isEditor, statusesFor } from "~/lib/permissions";
import { listReviewQueue, listSentBack } from "~/server/news/review.server";
import { publishFromRequest } from "~/server/news/publishing.server";
import { pageError } from "~/server/http/page-error.server";
import { formMessagesOf } from "~/lib/error-body";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { auth, newsroom } from "~/server/platform/site.server";
import { db } from "~/server/db/db.server";
import { listAllForDashboard, listMostRead } from "~/server/news/news.server";
import { EDITORS } from "~/server/news/audience.server";
import { totalSiteVisits } from "~/server/visits/visits.server";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import type { Route } from "./+types/dashboard";

export const handle = HYDRATE_DOCUMENT;

const TABLE_PAGE_SIZE = 20;
const REVIEW_LIST_SIZE = 20;

export async function loader({ request }: Route.LoaderArgs) {
  const actor = await requireNewsroomMember(auth(), request);
  const url = new URL(request.url);
  const page = pageFromUrl(url);
  const database = db();
  const editor = isEditor(actor);
  const [totalVisits, mostRead, table, reviewQueue, sentBack] = await Promise.all([
    totalSiteVisits(database),
    listMostRead(database, 8, EDITORS),
    listAllForDashboard(database, page, TABLE_PAGE_SIZE),
    editor ? listReviewQueue(database, REVIEW_LIST_SIZE) : null,
    listSentBack(database, actor.id, REVIEW_LIST_SIZE),
  ]);
  const publishedId = url.searchParams.get("published");
  return { totalVisits, mostRead, table, page, submissionId: randomUUID(), publishedId, reviewQueue, sentBack, statuses: statusesFor(actor), canDelete: editor };
}

export async function action({ request }: Route.ActionArgs) {
  const actor = await requireNewsroomMember(auth(), request);
  const result = await publishFromRequest(newsroom(), request, actor);
  if (!result.ok) {
    if (result.error.code === "forbidden") throw pageError(result.error);
    return pageError(result.error);
  }
  return redirect(`/dashboard?published=${encodeURIComponent(result.id)}`);
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({ baseUrl: baseUrlOf(matches), path: "/dashboard", title: `${messages.dashboard} | ${messages.siteName}`, description: messages.dashboard, noindex: true, image: null });
}

function Panel({ id, title, children }: { id: string; title: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
      <h2 id={id} className="mb-4 text-xl font-bold">
        {title}
      </h2>
      {children}
    </section>
  );
}

const cell = "px-3 py-2 align-top";
const actionButton = "rounded border border-stone-300 bg-white px-2 py-1 text-sm font-bold hover:bg-stone-100 whitespace-nowrap";

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const { totalVisits, mostRead, table, page, submissionId, publishedId, reviewQueue, sentBack, statuses, canDelete } = loaderData;
  const here = page > 1 ? `/dashboard?page=${page}` : "/dashboard";
  return (
    <div className="space-y-10">
      <h1 className="border-s-4 border-brand-600 ps-3 text-3xl font-bold">{messages.dashboard}</h1>

      {reviewQueue && (
        <Panel id="review-queue-title" title={messages.reviewQueue}>
          <ReviewQueue items={reviewQueue} />
        </Panel>
      )}

      {sentBack.length > 0 && (
        <Panel id="sent-back-title" title={messages.sentBackToYou}>
          <SentBackList items={sentBack} />
        </Panel>
      )}

      <Panel id="publish-title" title={messages.publishTitle}>
        {publishedId && (
          <p role="status" className="mb-4 rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800">
            {messages.published} —{" "}
            <Link to={articlePath(publishedId)} className="underline">
              {messages.viewArticle}
            </Link>
          </p>
        )}
        <ArticleForm key={submissionId} mode="create" action="/dashboard" apiUrl="/api/news" submissionId={submissionId} statuses={statuses} errors={actionData && formMessagesOf(actionData.error)} />
      </Panel>

      <Panel id="table-title" title={messages.allArticles}>
        <div className="overflow-x-auto">
          <table className="w-full min-w-[720px] text-start text-sm" data-testid="news-table">
            <thead className="bg-stone-100 text-start">
              <tr>
                <th scope="col" className={`${cell} text-start`}>{messages.tableTitle}</th>
                <th scope="col" className={`${cell} text-start`}>{messages.tableCategory}</th>
                <th scope="col" className={`${cell} text-start`}>{messages.tableStatus}</th>
                <th scope="col" className={`${cell} text-start`}>{messages.tableDate}</th>
                <th scope="col" className={`${cell} text-start`}>{messages.tableVisits}</th>
                <th scope="col" className={`${cell} text-start`}>{messages.tableActions}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200">
              {table.items.map((item) => (
                <tr key={item.id} data-testid="news-row">
                  <td className={`${cell} font-bold`}>
                    <Link to={articlePath(item.id)} className="hover:text-brand-700">
                      {item.title}
                    </Link>
                  </td>
                  <td className={cell}>{categoryLabel(item.category)}</td>
                  <td className={cell}>
                    <span className={`rounded px-2 py-0.5 text-xs font-bold ${item.status === "published" ? "bg-green-100 text-green-800" : "bg-amber-100 text-amber-900"}`}>
                      {item.status === "published" ? messages.statusPublished : messages.statusDraft}
                    </span>
                  </td>
                  <td className={`${cell} whitespace-nowrap`}>{formatDay(item.createdAt)}</td>
                  <td className={cell}>{item.visits.toLocaleString("ar-LB")}</td>
                  <td className={cell}>
                    <div className="flex flex-wrap gap-1">
                      <CopyShortLinkButton shortId={item.shortId} className={actionButton} />
                      <EditArticleLink id={item.id} className={actionButton} />
                      {canDelete && <DeleteArticleButton id={item.id} confirmText={messages.confirmDelete} redirectTo={here} className={`${actionButton} text-brand-700`} />}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <nav className="mt-4 flex justify-center gap-3" aria-label={messages.page}>
          {page > 1 && (
            <Link to={page === 2 ? "/dashboard" : `/dashboard?page=${page - 1}`} className={actionButton}>
              {messages.previousPage}
            </Link>
          )}
          {table.hasMore && (
            <Link to={`/dashboard?page=${page + 1}`} className={actionButton}>
              {messages.nextPage}
            </Link>
          )}
        </nav>
      </Panel>

      <Panel id="stats-title" title={messages.siteStatistics}>
        <p className="text-stone-600">
          {messages.totalSiteVisits}:{" "}
          <strong className="text-2xl text-ink" data-testid="total-visits">
            {totalVisits.toLocaleString("ar-LB")}
          </strong>
        </p>
        <h3 className="mt-6 mb-2 font-bold">{messages.mostRead}</h3>
        <ol className="list-inside list-decimal space-y-1">
          {mostRead.map((item) => (
            <li key={item.id}>
              <Link to={articlePath(item.id)} className="hover:text-brand-700">
                {item.title}
              </Link>{" "}
              <span className="text-sm text-stone-500">
                ({item.visits.toLocaleString("ar-LB")} {messages.visits})
              </span>
            </li>
          ))}
        </ol>
      </Panel>
    </div>
  );
}
