import { Link } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { VersionComparison } from "~/components/version-comparison";
import { RemovedMediaProvider } from "~/components/removed-media";
import { formatDateTime } from "~/lib/dates";
import { newsroomMessages, revisionMessages as m } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { hasChanges, VERSION_KIND_LABELS, type VersionEntry, type VersionRef } from "~/lib/story-version";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { assertRevisionsAccess } from "~/server/news/revision-access.server";
import { compareStoryVersions } from "~/server/news/story-versions.server";
import { removedImagesIn } from "~/server/news/media-library.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/edit-news-compare";

export const handle = HYDRATE_DOCUMENT;

/** Whoever may edit the story compares its versions; a refusal (404, 403) is the error page. */
export async function loader({ request, params, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  await assertRevisionsAccess(site.db, actor, params.id);
  const compared = await compareStoryVersions(
    site.db,
    params.id,
    url.searchParams.get("from"),
    url.searchParams.get("to"),
  );
  return { newsId: params.id, ...compared, removedMedia: await removedImagesIn(site.db, compared.comparison) };
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: `/edit-news/${params.id}/compare`,
    title: `${m.compareTitle} | ${siteOf(matches).name}`,
    description: m.compareTitle,
    noindex: true,
    image: null,
  });
}

function versionLabel(version: VersionEntry): string {
  const name = version.ref === "current" ? m.currentVersion : version.title;
  return `${name} — ${VERSION_KIND_LABELS[version.kind]} · ${version.by ?? newsroomMessages.unknownPerson} · ${formatDateTime(version.at)}`;
}

function VersionSelect({
  name,
  label,
  versions,
  value,
}: {
  name: string;
  label: string;
  versions: VersionEntry[];
  value: VersionRef;
}) {
  return (
    <label className="flex min-w-0 flex-1 flex-col gap-1 font-bold">
      {label}
      <select
        name={name}
        defaultValue={String(value)}
        className="w-full min-w-0 rounded border border-stone-300 bg-white p-2 font-normal"
      >
        {versions.map((version) => (
          <option key={String(version.ref)} value={String(version.ref)}>
            {versionLabel(version)}
          </option>
        ))}
      </select>
    </label>
  );
}

export default function ComparePage({ loaderData }: Route.ComponentProps) {
  const { newsId, versions, from, to, comparison, removedMedia } = loaderData;
  const editPath = `/edit-news/${encodeURIComponent(newsId)}`;
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <DashboardHeading title={m.compareTitle} links={[{ to: editPath, label: newsroomMessages.backToEdit }]} />
      <form
        method="get"
        className="flex flex-col gap-3 rounded-lg bg-white p-4 shadow-sm ring-1 ring-stone-200 sm:flex-row sm:items-end"
        data-testid="compare-form"
      >
        <VersionSelect name="from" label={m.compareFrom} versions={versions} value={from} />
        <VersionSelect name="to" label={m.compareTo} versions={versions} value={to} />
        <button type="submit" className="rounded bg-brand-600 px-4 py-2 font-bold text-white hover:bg-brand-700">
          {m.compareShow}
        </button>
      </form>
      {hasChanges(comparison) ? null : <p className="text-stone-600">{m.compareNothing}</p>}
      <RemovedMediaProvider urls={removedMedia}>
        <VersionComparison comparison={comparison} />
      </RemovedMediaProvider>
      {from !== "current" && to === "current" ? (
        <Link to={`${editPath}/revisions/${from}`} className="inline-block font-bold text-brand-700 hover:underline">
          {newsroomMessages.restoreRevision}
        </Link>
      ) : null}
    </div>
  );
}
