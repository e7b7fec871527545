import { useEffect } from "react";
import { isRouteErrorResponse, redirect, useNavigate, useRouteError } from "react-router";
import { messages } from "~/lib/messages";
import { newsroomMessages, revisionMessages } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { articleIdPath } from "~/lib/news";
import { ArticleForm } from "~/components/article-form";
import { LiveDeskLink } from "~/components/admin-actions";
import { RevisionHistory } from "~/components/revision-history";
import { StoryStatsPanel } from "~/components/story-stats-panel";
import { readStoryStats } from "~/server/stats/read-story-stats.server";
import { listVersions } from "~/server/news/story-versions.server";
import { EditPresence } from "~/components/edit-presence";
import { topicsOfArticle } from "~/server/news/topics.server";
import { ErrorPage } from "~/components/error-page";
import { EditorNote, ReviewPanel } from "~/components/review";
import { editableArticle, editArticle } from "~/server/news/publishing.server";
import { ARTICLE_FORM_LIMITS } from "~/server/news/submission-limits.server";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { canSendAlerts, isEditor, statusesFor } from "~/lib/permissions";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import type { Route } from "./+types/edit-news";
import { keepErrorHeaders } from "~/server/http/error-headers.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { articleSchema } from "~/lib/article-schema";
import { readForm } from "~/server/http/read-form.server";
import { articleFormReading } from "~/server/news/article-form.server";
import { siteContext } from "~/server/site/request-context.server";

export const handle = HYDRATE_DOCUMENT;

export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const { article, reviewNote } = await editableArticle(site.db, params.id, actor);
  const searchParams = url.searchParams;
  return {
    article,
    reviewNote,
    versions: await listVersions(site.db, article.id),
    topics: {
      names: (await topicsOfArticle(site.db, article.id)).map((topic) => topic.name),
      mayCreate: isEditor(actor),
    },
    statuses: statusesFor(actor),
    alerts: canSendAlerts(actor),
    canReview: isEditor(actor) && article.status === "review",
    savedPath: isEditor(actor) ? undefined : "/dashboard",
    sentBack: searchParams.has("sentBack"),
    restored: searchParams.get("restored"),
    stats:
      article.status === "published"
        ? await readStoryStats(site.db, { id: article.id, publishedAt: article.publishedAt, now: site.clock.now() })
        : null,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const room = site.newsroom;
  // An article deleted meanwhile is the 404 page, one not the member's to edit the 403 page; any other refusal goes back to the form.
  return answerForm(
    async () => {
      const { article } = await editableArticle(room.db, params.id, actor);
      await withSubmission(request, room.stagingDir, ARTICLE_FORM_LIMITS, async (form) =>
        editArticle(room, actor, article, {
          input: await readForm(articleSchema, form, articleFormReading("page")),
          files: form.files,
        }),
      );
      // An author's article is not public yet: they go back to their dashboard.
      return redirect(isEditor(actor) ? `${articleIdPath(article.id)}?updated=1` : "/dashboard");
    },
    { passOn: ["not-found", "forbidden"] },
  );
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: `/edit-news/${params.id}`,
    title: `${newsroomMessages.editTitle} | ${siteOf(matches).name}`,
    description: newsroomMessages.editTitle,
    noindex: true,
    image: null,
  });
}

export default function EditNews({ loaderData, actionData }: Route.ComponentProps) {
  const { article, reviewNote, versions, statuses, alerts, canReview, sentBack, savedPath, restored, topics, stats } =
    loaderData;
  const refusal = errorOf(actionData);
  return (
    <>
      <section
        aria-labelledby="edit-title"
        className="mx-auto max-w-3xl rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200"
      >
        <div className="mb-6 flex flex-wrap items-center justify-between gap-2">
          <h1 id="edit-title" className="text-2xl font-bold">
            {newsroomMessages.editTitle}
          </h1>
          <LiveDeskLink
            id={article.id}
            className="rounded border border-stone-300 px-3 py-1 text-sm font-bold hover:bg-stone-50"
          />
        </div>
        {(restored === "1" || restored === "text") && (
          <p role="status" className="mb-4 rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800">
            {restored === "text" ? revisionMessages.restoredText : newsroomMessages.revisionRestored}
          </p>
        )}
        {sentBack && (
          <p role="status" className="mb-4 rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800">
            {newsroomMessages.sentBack}
          </p>
        )}
        <EditPresence articleId={article.id} />
        {reviewNote && article.status === "draft" && <EditorNote note={reviewNote} />}
        {canReview && <ReviewPanel id={article.id} />}
        {/* A new version (taking theirs after a conflict) is a new form: its fields start from it. */}
        <ArticleForm
          key={article.version}
          mode="edit"
          action={`/edit-news/${encodeURIComponent(article.id)}`}
          apiUrl={`/api/news/${encodeURIComponent(article.id)}`}
          article={article}
          statuses={statuses}
          alerts={alerts}
          topics={topics}
          savedPath={savedPath}
          errors={refusal ? formMessagesOf(refusal) : undefined}
        />
      </section>
      <StoryStatsPanel stats={stats} />
      <RevisionHistory newsId={article.id} versions={versions} />
    </>
  );
}

/** An unknown id: the 404 page; with JavaScript, the alert of docs/product.md#messages and a return home. */
export const headers = keepErrorHeaders;

export function ErrorBoundary() {
  const error = useRouteError();
  const navigate = useNavigate();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!notFound) return;
    window.alert(newsroomMessages.newsNotFoundAlert);
    navigate("/", { replace: true });
  }, [notFound, navigate]);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <ErrorPage status={status} message={notFound ? messages.newsNotFound : undefined} />;
}
