import { Link, redirect } from "react-router";
import { isCategory } from "~/lib/categories";
import { formatDateTime } from "~/lib/dates";
import { errorOf } from "~/lib/error-body";
import { newsroomMessages, revisionMessages as m } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { ArticleBody } from "~/components/article-body";
import { MediaThumb, VersionComparison } from "~/components/version-comparison";
import { RemovedMediaProvider } from "~/components/removed-media";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { pageError } from "~/server/http/page-error.server";
import { baseVersionOf } from "~/server/news/base-version.server";
import {
  previewRestore,
  restoreRevision,
  revisionNotFound,
  type RestoreRequest,
} from "~/server/news/restore-revision.server";
import { AppError } from "~/server/platform/app-error.server";
import { assertRevisionsAccess } from "~/server/news/revision-access.server";
import { getRevision } from "~/server/news/revisions.server";
import { removedImagesIn } from "~/server/news/media-library.server";
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

/**
 * The form's choice: `mode` text or full (anything else refused, nothing changed), the media it
 * listed as leaving (`removal`, one each) if the person ticked `confirmRemoval`, and the live version
 * it was shown (`baseVersion`).
 */
function restoreRequestOf(form: FormData): RestoreRequest {
  const mode = form.get("mode");
  if (mode !== "text" && mode !== "full") throw new AppError("validation", { message: m.restoreModeInvalid });
  const baseVersion = baseVersionOf(form.get("baseVersion"));
  const listed = form.getAll("removal").filter((value): value is string => typeof value === "string");
  return { mode, confirmedRemovals: form.get("confirmRemoval") === "1" ? listed : [], baseVersion };
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await allowed(site, request, params.id);
  const revision = await getRevision(site.db, params.id, Number(params.revisionId));
  if (!revision) throw pageError(revisionNotFound());
  const preview = await previewRestore(site.db, params.id, revision.id);
  return { revision, preview, removedMedia: await removedImagesIn(site.db, { revision, preview }) };
}

/** Restores the revision (itself a new save), its text alone or whole, and goes back to the edit page; a refusal stays here with its message. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await allowed(site, request, params.id);
  return answerForm(
    async () => {
      const restore = restoreRequestOf(await readSmallForm(request));
      await restoreRevision(site.db, params.id, Number(params.revisionId), user.id, restore, site.clock.now());
      return redirect(`/edit-news/${encodeURIComponent(params.id)}?restored=${restore.mode === "text" ? "text" : "1"}`);
    },
    { passOn: ["not-found", "forbidden"] },
  );
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: `/edit-news/${params.id}/revisions/${params.revisionId}`,
    title: `${newsroomMessages.revisionTitle} | ${siteOf(matches).name}`,
    description: newsroomMessages.revisionTitle,
    noindex: true,
    image: null,
  });
}

const button = "rounded px-4 py-2 font-bold";

/** One way of restoring: what it does, what it takes off the story (to be confirmed), and its button. */
function RestoreForm({
  mode,
  label,
  note,
  removed,
  version,
  testId,
}: {
  mode: "text" | "full";
  label: string;
  note: string;
  removed: string[];
  version: number;
  testId: string;
}) {
  return (
    <form method="post" className="space-y-3 rounded-lg border border-stone-300 bg-white p-4" data-testid={testId}>
      <input type="hidden" name="mode" value={mode} />
      <input type="hidden" name="baseVersion" value={version} />
      <p className="text-sm text-stone-700">{note}</p>
      {removed.length > 0 ? (
        <div
          className="space-y-2 rounded border border-red-300 bg-red-50 p-3"
          role="alert"
          data-testid="restore-removals"
        >
          <p className="font-bold text-red-900">{m.restoreWillRemove}</p>
          <ul className="flex flex-wrap gap-3">
            {removed.map((url) => (
              <li key={url}>
                <input type="hidden" name="removal" value={url} />
                <MediaThumb url={url} />
              </li>
            ))}
          </ul>
          <label className="flex items-start gap-2 font-bold">
            <input type="checkbox" name="confirmRemoval" value="1" required className="mt-1.5" />
            {m.restoreConfirmRemoval}
          </label>
        </div>
      ) : null}
      <button
        type="submit"
        className={`${button} ${mode === "text" ? "bg-brand-600 text-white hover:bg-brand-700" : "border border-stone-400 bg-white hover:bg-stone-100"}`}
      >
        {label}
      </button>
    </form>
  );
}

export default function RevisionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { revision, preview, removedMedia } = loaderData;
  const refusal = errorOf(actionData);
  const editPath = `/edit-news/${encodeURIComponent(revision.newsId)}`;
  return (
    <RemovedMediaProvider urls={removedMedia}>
      <div className="mx-auto max-w-3xl space-y-6">
        <div className="space-y-3 rounded-lg border border-amber-300 bg-amber-50 p-4" role="note">
          <p className="font-bold">
            {newsroomMessages.revisionTitle} — {formatDateTime(revision.savedAt)}
          </p>
          <h1 className="text-2xl font-bold">{m.restorePreviewTitle}</h1>
          <p className="text-sm text-stone-700">{m.restorePreviewNote}</p>
          {refusal ? (
            <p
              role="alert"
              className="rounded border border-red-300 bg-red-50 p-3 font-bold text-red-900"
              data-testid="restore-refusal"
            >
              {refusal.message}
            </p>
          ) : null}
          <RestoreForm
            mode="text"
            label={m.restoreText}
            note={m.restoreTextNote}
            removed={preview.text.removed}
            version={preview.version}
            testId="restore-text"
          />
          <RestoreForm
            mode="full"
            label={m.restoreFull}
            note={m.restoreFullNote}
            removed={preview.full.removed}
            version={preview.version}
            testId="restore-full"
          />
          <Link to={editPath} className={`${button} inline-block border border-stone-300 bg-white hover:bg-stone-100`}>
            {newsroomMessages.backToEdit}
          </Link>
        </div>
        <section className="space-y-3" aria-label={m.restorePreviewTitle} data-testid="restore-preview">
          <VersionComparison comparison={preview.full.comparison} />
        </section>
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
    </RemovedMediaProvider>
  );
}
