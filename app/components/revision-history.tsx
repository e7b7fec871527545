import { formatDateTime } from "~/lib/dates";
import { messages } from "~/lib/messages";
import { RowList } from "./row-list";

export type RevisionItem = { id: number; title: string; savedAt: string; savedBy: string | null };

/** The edit page's list of an article's earlier versions: who replaced each and when, each one a link to read (and restore) it. */
export function RevisionHistory({ newsId, revisions }: { newsId: string; revisions: RevisionItem[] }) {
  return (
    <section aria-labelledby="revisions-title" className="mx-auto mt-8 max-w-3xl rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200">
      <h2 id="revisions-title" className="mb-4 text-xl font-bold">
        {messages.revisionsTitle}
      </h2>
      <RowList
        testId="revisions"
        rowTestId="revision"
        empty={messages.revisionsEmpty}
        rows={revisions.map((revision) => ({
          key: revision.id,
          title: revision.title,
          details: (
            <>
              <time dateTime={revision.savedAt}>{formatDateTime(revision.savedAt)}</time> · {messages.revisionSavedBy}: {revision.savedBy ?? messages.unknownPerson}
            </>
          ),
          actions: (
            <a href={`/edit-news/${encodeURIComponent(newsId)}/revisions/${revision.id}`} className="font-bold text-brand-700 hover:underline">
              {messages.viewRevision}
            </a>
          ),
        }))}
      />
    </section>
  );
}
