import { revisionMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { VERSION_KIND_LABELS, type VersionEntry } from "~/lib/story-version";
import { RelativeTime } from "./relative-time";
import { RowList } from "./row-list";

const KIND_STYLES = {
  save: "bg-brand-50 text-brand-800 ring-brand-100",
  autosave: "bg-stone-100 text-stone-700 ring-stone-300",
  created: "bg-amber-50 text-amber-900 ring-amber-200",
} as const;

/** Which save made a version, as a badge read before its title. */
export function VersionKind({ kind }: { kind: VersionEntry["kind"] }) {
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-bold ring-1 ${KIND_STYLES[kind]}`}>
      {VERSION_KIND_LABELS[kind]}
    </span>
  );
}

const link = "font-bold text-brand-700 hover:underline";

/** The save that made a version: its kind, who, and when (relative, the absolute date beside it on hover). */
function VersionDetails({ version }: { version: VersionEntry }) {
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <VersionKind kind={version.kind} />
      <span>
        {revisionMessages.versionBy} {version.by ?? newsroomMessages.unknownPerson} · <RelativeTime iso={version.at} />
      </span>
    </span>
  );
}

/** The edit page's history: the live version, then the kept ones newest first, each with the save (or autosave) that made it, who and when; compare or read and restore each. */
export function RevisionHistory({ newsId, versions }: { newsId: string; versions: VersionEntry[] }) {
  const base = `/edit-news/${encodeURIComponent(newsId)}`;
  const current = versions.find((version) => version.ref === "current");
  const kept = versions.filter((version) => version.ref !== "current");
  return (
    <section
      aria-labelledby="revisions-title"
      className="mx-auto mt-8 max-w-3xl rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200"
    >
      <h2 id="revisions-title" className="mb-4 text-xl font-bold">
        {newsroomMessages.revisionsTitle}
      </h2>
      {current && versions.length > 1 ? (
        <p className="mb-2 flex flex-wrap items-center gap-2 text-sm text-stone-700" data-testid="current-version">
          <span className="font-bold">{revisionMessages.currentVersion}</span>
          <VersionDetails version={current} />
        </p>
      ) : null}
      <RowList
        testId="revisions"
        rowTestId="revision"
        empty={newsroomMessages.revisionsEmpty}
        rows={kept.map((version) => ({
          key: String(version.ref),
          title: version.title,
          details: <VersionDetails version={version} />,
          actions: (
            <>
              <a
                href={`${base}/compare?from=${version.ref}&to=current`}
                className={link}
                data-testid="compare-revision"
              >
                {revisionMessages.compareWithCurrent}
              </a>
              <a href={`${base}/revisions/${version.ref}`} className={link}>
                {newsroomMessages.viewRevision}
              </a>
            </>
          ),
        }))}
      />
    </section>
  );
}
