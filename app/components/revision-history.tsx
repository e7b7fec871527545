import { formatDateTime } from "~/lib/dates";
import { messages } from "~/lib/messages";

export type RevisionItem = { id: number; title: string; savedAt: string; savedBy: string | null };

/** The edit page's list of an article's earlier versions: who replaced each and when, each one a link to read (and restore) it. */
export function RevisionHistory({ newsId, revisions }: { newsId: string; revisions: RevisionItem[] }) {
  return (
    <section aria-labelledby="revisions-title" className="mx-auto mt-8 max-w-3xl rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
      <h2 id="revisions-title" className="mb-4 text-xl font-bold">
        {messages.revisionsTitle}
      </h2>
      {revisions.length === 0 ? (
        <p className="text-stone-600">{messages.revisionsEmpty}</p>
      ) : (
        <ol className="divide-y divide-stone-200" data-testid="revisions">
          {revisions.map((revision) => (
            <li key={revision.id} className="flex flex-col gap-1 py-3 sm:flex-row sm:items-center sm:justify-between" data-testid="revision">
              <div className="min-w-0">
                <p className="font-bold break-words">{revision.title}</p>
                <p className="text-sm text-stone-600">
                  <time dateTime={revision.savedAt}>{formatDateTime(revision.savedAt)}</time> · {messages.revisionSavedBy}: {revision.savedBy ?? messages.unknownPerson}
                </p>
              </div>
              <a href={`/edit-news/${encodeURIComponent(newsId)}/revisions/${revision.id}`} className="shrink-0 font-bold text-brand-700 hover:underline">
                {messages.viewRevision}
              </a>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
