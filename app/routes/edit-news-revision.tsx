import { Link, redirect } from "react-router";
import { isCategory } from "~/lib/categories";
import { formatDateTime } from "~/lib/dates";
import { messages } from "~/lib/messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { ArticleBody } from "~/components/article-body";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { pageError } from "~/server/http/page-error.server";
import { restoreRevision, revisionNotFound } from "~/server/news/restore-revision.server";
import { assertRevisionsAccess } from "~/server/news/revision-access.server";
import { getRevision } from "~/server/news/revisions.server";
import type { Site } from "~/server/site/site.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/edit-news-revision";

export const handle = HYDRATE_DOCUMENT;


/** Whoever may edit the article; a refusal (404, 403) is the error page. */
async function allowed(site: Site, request: Request, newsId: string) {
  const user = await requireNewsroomMember(site.auth, request);
  await assertRevisionsAccess(site.db, user, newsId);
  return user;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await allowed(site, request, params.id);
  const revision = await getRevision(site.db, params.id, Number(params.revisionId));
  if (!revision) throw pageError(revisionNotFound());
  return { revision };
}

/** Restores the revision (itself a new save) and goes back to the edit page. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await allowed(site, request, params.id);
  await readSmallForm(request);
  await restoreRevision(site.db, params.id, Number(params.revisionId), user.id, site.clock.now());
  return redirect(`/edit-news/${encodeURIComponent(params.id)}?restored=1`);
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta({ ...siteMetaOf(matches), path: `/edit-news/${params.id}/revisions/${params.revisionId}`, title: `${messages.revisionTitle} | ${siteOf(matches).name}`, description: messages.revisionTitle, noindex: true, image: null });
}

export default function RevisionPage({ loaderData }: Route.ComponentProps) {
  const { revision } = loaderData;
  const editPath = `/edit-news/${encodeURIComponent(revision.newsId)}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <div className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" role="note">
        <p className="font-bold">
          {messages.revisionTitle} — {formatDateTime(revision.savedAt)}
          {revision.savedBy ? ` · ${messages.revisionSavedBy}: ${revision.savedBy}` : ""}
        </p>
        <p className="text-sm text-stone-700">{messages.revisionNote}</p>
        <div className="flex flex-wrap gap-2">
          <form method="post" onSubmit={(event) => !window.confirm(messages.confirmRestoreRevision) && event.preventDefault()}>
            <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-bold text-white hover:bg-brand-700" data-testid="restore-revision">
              {messages.restoreRevision}
            </button>
          </form>
          <Link to={editPath} className="rounded border border-stone-300 bg-white px-4 py-2 font-bold hover:bg-stone-100">
            {messages.backToEdit}
          </Link>
        </div>
      </div>
      <div className="rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
        <ArticleBody
          title={revision.title}
          standfirst={revision.story.standfirst}
          body={revision.body}
          category={isCategory(revision.category) ? revision.category : "miscellaneous"}
          images={revision.imageUrl ? [...revision.images, revision.imageUrl] : revision.images}
          imageDetails={revision.imageDetails}
          video={revision.video}
          time={revision.savedAt}
          topics={(revision.topics ?? []).map((name) => ({ name }))}
        />
      </div>
    </div>
  );
}
