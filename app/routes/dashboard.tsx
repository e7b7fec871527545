import { randomUUID } from "node:crypto";
import { Link, redirect } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { categoryLabel } from "~/lib/categories";
import { formatDay } from "~/lib/dates";
import { accountMenuLink, messages } from "~/lib/messages";
import {
  accountMessages,
  frontPageMessages,
  mediaLibraryMessages,
  newsroomMessages,
  revisionMessages,
  topicMessages,
  newsletterDeskMessages,
  pushMessages,
  statsMessages,
} from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { articleIdPath, articlePath, type NewsStatus } from "~/lib/news";
import { dashboardFilterFromUrl, dashboardPath, isFiltered, savedIdFromUrl } from "~/lib/dashboard-filter";
import { savedMessage, statusLabel } from "~/lib/status-labels";
import { pageFromUrl } from "~/lib/pagination";
import { CopyShortLinkButton, DeleteArticleButton, EditArticleLink, LiveDeskLink } from "~/components/admin-actions";
import { ArticleForm } from "~/components/article-form";
import { dashboardButton, DashboardFilters } from "~/components/dashboard-filters";
import { ReviewQueue, ReviewWaitingNotice, SentBackList } from "~/components/review";
import { SiteSettingsNotice } from "~/components/site-settings-notice";
import { canEditArticle, canPostLiveUpdate, canSendAlerts, isEditor, statusesFor } from "~/lib/permissions";
import { countAwaitingReview, listReviewQueue, listSentBack } from "~/server/news/review.server";
import { publishArticle } from "~/server/news/publishing.server";
import { ARTICLE_FORM_LIMITS } from "~/server/news/submission-limits.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { articleSchema } from "~/lib/article-schema";
import { readForm } from "~/server/http/read-form.server";
import { articleFormReading } from "~/server/news/article-form.server";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { getArticle, listMostRead } from "~/server/news/articles-read.server";
import { listAllForDashboard, listNewsroomMembers } from "~/server/news/dashboard-list.server";
import { EDITORS } from "~/lib/audience";
import { totalSiteVisits } from "~/server/visits/visits.server";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard";

export const handle = HYDRATE_DOCUMENT;

const TABLE_PAGE_SIZE = 20;
const REVIEW_LIST_SIZE = 20;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const page = pageFromUrl(url);
  const filter = dashboardFilterFromUrl(url);
  const savedId = savedIdFromUrl(url);
  const database = site.db;
  const editor = isEditor(actor);
  // An author's list holds their own articles only: others' work is not theirs to open.
  const listed = editor ? filter : { ...filter, authorId: actor.id };
  const [totalVisits, mostRead, table, members, saved, reviewQueue, sentBack, awaitingReview] = await Promise.all([
    totalSiteVisits(database),
    listMostRead(database, 8, EDITORS),
    listAllForDashboard(database, listed, page, TABLE_PAGE_SIZE),
    editor ? listNewsroomMembers(database) : [],
    savedId ? getArticle(database, savedId, EDITORS) : null,
    editor ? listReviewQueue(database, REVIEW_LIST_SIZE) : null,
    listSentBack(database, actor.id, REVIEW_LIST_SIZE),
    editor ? countAwaitingReview(database) : 0,
  ]);
  return {
    totalVisits,
    mostRead,
    table,
    members,
    filter,
    page,
    submissionId: randomUUID(),
    saved: saved && { id: saved.id, status: saved.status },
    reviewQueue,
    sentBack,
    awaitingReview,
    statuses: statusesFor(actor),
    canDelete: editor,
    actor: { id: actor.id, role: actor.role },
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const room = site.newsroom;
  // A status the member may not give is the 403 page; any other refusal goes back to the form.
  return answerForm(
    async () => {
      const { id } = await withSubmission(request, room.stagingDir, ARTICLE_FORM_LIMITS, async (form) =>
        publishArticle(room, actor, {
          input: await readForm(articleSchema, form, articleFormReading("page")),
          files: form.files,
        }),
      );
      return redirect(`/dashboard?saved=${encodeURIComponent(id)}`);
    },
    { passOn: ["forbidden"] },
  );
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard",
    title: `${messages.dashboard} | ${siteOf(matches).name}`,
    description: messages.dashboard,
    noindex: true,
    image: null,
  });
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
/** Under the lg breakpoint each row is a card: the title, then its details in a line, then the actions. */
const metaCell = `${cell} lg:whitespace-nowrap max-lg:inline-block max-lg:px-0 max-lg:py-0.5 max-lg:pe-3`;

const STATUS_STYLES: Record<NewsStatus, string> = {
  published: "bg-green-100 text-green-800",
  draft: "bg-amber-100 text-amber-900",
  review: "bg-sky-100 text-sky-900",
  scheduled: "bg-violet-100 text-violet-900",
  trashed: "bg-stone-200 text-stone-700",
};

export default function Dashboard({ loaderData, actionData }: Route.ComponentProps) {
  const {
    totalVisits,
    mostRead,
    table,
    members,
    filter,
    page,
    submissionId,
    saved,
    reviewQueue,
    sentBack,
    awaitingReview,
    statuses,
    canDelete,
    actor,
  } = loaderData;
  const here = dashboardPath(filter, page);
  const refusal = errorOf(actionData);
  return (
    <div className="space-y-10">
      <DashboardHeading
        title={messages.dashboard}
        links={[
          canDelete && { to: "/dashboard/front-page", label: frontPageMessages.title },
          canDelete && { to: "/dashboard/trash", label: newsroomMessages.trashTitle },
          canDelete && { to: "/dashboard/alerts", label: pushMessages.alertsTitle },
          canDelete && { to: "/dashboard/newsletter", label: newsletterDeskMessages.title },
          actor.role === "admin" && { to: "/dashboard/users", label: accountMessages.usersTitle },
          actor.role === "admin" && { to: "/dashboard/topics", label: topicMessages.dashboardTitle },
          { to: "/dashboard/stats", label: statsMessages.navLink },
          { to: "/dashboard/calendar", label: revisionMessages.calendarLink },
          { to: "/dashboard/media", label: mediaLibraryMessages.title },
          { to: "/dashboard/account", label: accountMenuLink },
        ]}
      />
      <SiteSettingsNotice actor={actor} />
      <ReviewWaitingNotice count={awaitingReview} />

      {reviewQueue && (
        <Panel id="review-queue-title" title={newsroomMessages.reviewQueue}>
          <ReviewQueue items={reviewQueue} />
        </Panel>
      )}

      {sentBack.length > 0 && (
        <Panel id="sent-back-title" title={newsroomMessages.sentBackToYou}>
          <SentBackList items={sentBack} />
        </Panel>
      )}

      <Panel id="publish-title" title={newsroomMessages.publishTitle}>
        {saved && (
          <p
            role="status"
            className="mb-4 rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800"
            data-testid="saved-banner"
          >
            {savedMessage(saved.status)} —{" "}
            <Link to={articleIdPath(saved.id)} className="underline">
              {newsroomMessages.viewArticle}
            </Link>
          </p>
        )}
        <ArticleForm
          key={submissionId}
          mode="create"
          action="/dashboard"
          apiUrl="/api/news"
          submissionId={submissionId}
          statuses={statuses}
          alerts={canSendAlerts(actor)}
          topics={{ names: [], mayCreate: isEditor(actor) }}
          errors={refusal ? formMessagesOf(refusal) : undefined}
        />
      </Panel>

      <Panel id="table-title" title={newsroomMessages.allArticles}>
        <DashboardFilters filter={filter} members={members} />
        {table.items.length === 0 && (
          <p className="py-6 text-center text-stone-500">
            {isFiltered(filter) ? newsroomMessages.filterNoMatch : messages.noNews}
          </p>
        )}
        <div className="lg:overflow-x-auto">
          <table className="w-full text-start text-sm max-lg:block" data-testid="news-table">
            <thead className="bg-stone-100 text-start max-lg:hidden">
              <tr>
                <th scope="col" className={`${cell} text-start`}>
                  {newsroomMessages.tableTitle}
                </th>
                <th scope="col" className={`${cell} text-start`}>
                  {newsroomMessages.tableCategory}
                </th>
                <th scope="col" className={`${cell} text-start`}>
                  {newsroomMessages.tableAuthor}
                </th>
                <th scope="col" className={`${cell} text-start`}>
                  {newsroomMessages.tableStatus}
                </th>
                <th scope="col" className={`${cell} text-start`}>
                  {newsroomMessages.tableDate}
                </th>
                <th scope="col" className={`${cell} text-start`}>
                  {newsroomMessages.tableVisits}
                </th>
                <th scope="col" className={`${cell} text-start`}>
                  {newsroomMessages.tableActions}
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 max-lg:block">
              {table.items.map((item) => (
                <tr key={item.id} data-testid="news-row" className="max-lg:block max-lg:py-3">
                  <td className={`${cell} font-bold max-lg:block max-lg:px-0`}>
                    <Link to={articlePath(item.id, item.slug)} className="hover:text-brand-700">
                      {item.title}
                    </Link>
                  </td>
                  <td className={metaCell}>{categoryLabel(item.category)}</td>
                  <td className={metaCell}>{item.credit?.name ?? "—"}</td>
                  <td className={metaCell}>
                    <span
                      className={`rounded px-2 py-0.5 text-xs font-bold whitespace-nowrap ${STATUS_STYLES[item.status]}`}
                      data-testid="row-status"
                    >
                      {statusLabel(item.status)}
                    </span>
                  </td>
                  <td className={`${metaCell} whitespace-nowrap`}>{formatDay(item.createdAt)}</td>
                  <td className={metaCell}>
                    <span className="lg:hidden">{newsroomMessages.tableVisits}: </span>
                    {item.visits.toLocaleString("ar-LB")}
                  </td>
                  <td className={`${cell} max-lg:block max-lg:px-0`}>
                    <div className="flex gap-1 lg:flex-nowrap max-lg:flex-wrap" data-testid="row-actions">
                      <CopyShortLinkButton shortId={item.shortId} className={dashboardButton} />
                      {canEditArticle(actor, item) && <EditArticleLink id={item.id} className={dashboardButton} />}
                      {/* An author's own published story: no edit, but its live desk (decision 040). */}
                      {!canEditArticle(actor, item) && canPostLiveUpdate(actor, item) && (
                        <LiveDeskLink id={item.id} className={dashboardButton} />
                      )}
                      {canDelete && (
                        <DeleteArticleButton
                          id={item.id}
                          confirmText={newsroomMessages.confirmDelete}
                          redirectTo={here}
                          className={`${dashboardButton} text-brand-700`}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <nav className="mt-4 flex justify-center gap-3" aria-label={messages.page}>
          {page > 1 && (
            <Link to={dashboardPath(filter, page - 1)} className={dashboardButton} rel="prev">
              {messages.previousPage}
            </Link>
          )}
          {table.hasMore && (
            <Link to={dashboardPath(filter, page + 1)} className={dashboardButton} rel="next">
              {messages.nextPage}
            </Link>
          )}
        </nav>
      </Panel>

      <Panel id="stats-title" title={newsroomMessages.siteStatistics}>
        <p className="text-stone-600">
          {newsroomMessages.totalSiteVisits}:{" "}
          <strong className="text-2xl text-ink" data-testid="total-visits">
            {totalVisits.toLocaleString("ar-LB")}
          </strong>
        </p>
        <h3 className="mt-6 mb-2 font-bold">{messages.mostRead}</h3>
        <ol className="list-inside list-decimal space-y-1">
          {mostRead.map((item) => (
            <li key={item.id}>
              <Link to={articlePath(item.id, item.slug)} className="hover:text-brand-700">
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
