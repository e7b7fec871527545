import { useEffect } from "react";
import { isRouteErrorResponse, redirect, useNavigate, useRouteError } from "react-router";
import { messages } from "~/lib/messages";
import { baseUrlOf, pageMeta } from "~/lib/seo";
import { articlePath } from "~/lib/news";
import { ArticleForm } from "~/components/article-form";
import { RevisionHistory } from "~/components/revision-history";
import { listRevisions } from "~/server/news/revisions.server";
import { ErrorPage } from "~/components/error-page";
import { articleNotFound, editFromRequest } from "~/server/news/publishing.server";
import { formMessagesOf } from "~/lib/error-body";
import { EDITORS } from "~/server/news/audience.server";
import { requireAdmin } from "~/server/accounts/guards.server";
import { auth, newsroom } from "~/server/platform/site.server";
import { db } from "~/server/db/db.server";
import { getArticle } from "~/server/news/news.server";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import type { Route } from "./+types/edit-news";
import { keepErrorHeaders } from "~/server/http/error-headers.server";
import { pageError } from "~/server/http/page-error.server";

export const handle = HYDRATE_DOCUMENT;

export async function loader({ request, params }: Route.LoaderArgs) {
  await requireAdmin(auth(), request);
  const article = await getArticle(db(), params.id, EDITORS);
  if (!article) throw pageError(articleNotFound());
  const restored = new URL(request.url).searchParams.get("restored") === "1";
  return { article, revisions: await listRevisions(db(), article.id), restored };
}

export async function action({ request, params }: Route.ActionArgs) {
  const user = await requireAdmin(auth(), request);
  const result = await editFromRequest(newsroom(), request, params.id, user.id);
  if (!result.ok) {
    // An article deleted meanwhile is the 404 page; any other refusal goes back to the form.
    if (result.error.code === "not-found") throw pageError(result.error);
    return pageError(result.error);
  }
  return redirect(`${articlePath(result.id)}?updated=1`);
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta({ baseUrl: baseUrlOf(matches), path: `/edit-news/${params.id}`, title: `${messages.editTitle} | ${messages.siteName}`, description: messages.editTitle, noindex: true, image: null });
}

export default function EditNews({ loaderData, actionData }: Route.ComponentProps) {
  const { article, revisions, restored } = loaderData;
  return (
    <>
    <section aria-labelledby="edit-title" className="mx-auto max-w-3xl rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
      <h1 id="edit-title" className="mb-6 text-2xl font-bold">
        {messages.editTitle}
      </h1>
      {restored && (
        <p role="status" className="mb-4 rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800">
          {messages.revisionRestored}
        </p>
      )}
      <ArticleForm mode="edit" action={`/edit-news/${encodeURIComponent(article.id)}`} apiUrl={`/api/news/${encodeURIComponent(article.id)}`} article={article} errors={actionData && formMessagesOf(actionData.error)} />
    </section>
    <RevisionHistory newsId={article.id} revisions={revisions} />
    </>
  );
}

/** An unknown id: the 404 page; with JavaScript, SPEC.md's alert and a return home. */
export const headers = keepErrorHeaders;

export function ErrorBoundary() {
  const error = useRouteError();
  const navigate = useNavigate();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  useEffect(() => {
    if (!notFound) return;
    window.alert(messages.newsNotFoundAlert);
    navigate("/", { replace: true });
  }, [notFound, navigate]);
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return <ErrorPage status={status} message={notFound ? messages.newsNotFound : undefined} />;
}
