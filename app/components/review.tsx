import { Link } from "react-router";
import { categoryLabel, type Category } from "~/lib/categories";
import { formatDateTime } from "~/lib/dates";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { REVIEW_NOTE_MAX } from "~/lib/review-schema";

type QueueItem = { id: string; title: string; category: Category; authorName: string | null; changedAt: string };
type SentBackItem = QueueItem & { note: string };

const editPath = (id: string) => `/edit-news/${encodeURIComponent(id)}`;

/** The editors' notice that stories wait for review, with a link to them all; nothing when none does. */
export function ReviewWaitingNotice({ count }: { count: number }) {
  if (count === 0) return null;
  return (
    <p
      className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded border border-sky-700/30 bg-sky-50 p-3 text-sky-900"
      data-testid="review-waiting"
    >
      <span className="font-bold">
        {newsroomMessages.reviewWaitingCount}{" "}
        <span className="rounded-full bg-sky-700 px-2 py-0.5 text-white">{count.toLocaleString("ar-LB")}</span>
      </span>
      <Link to="/dashboard?status=review" className="font-bold underline hover:text-brand-700">
        {newsroomMessages.reviewWaitingLink}
      </Link>
    </p>
  );
}

/** The editors' review queue: what waits, who wrote it and since when. */
export function ReviewQueue({ items }: { items: QueueItem[] }) {
  if (items.length === 0) return <p className="text-stone-600">{newsroomMessages.reviewQueueEmpty}</p>;
  return (
    <ul className="divide-y divide-stone-200" data-testid="review-queue">
      {items.map((item) => (
        <li key={item.id} className="py-3">
          <Link to={editPath(item.id)} className="font-bold break-words hover:text-brand-700">
            {item.title}
          </Link>
          <p className="mt-1 text-sm text-stone-600">
            {categoryLabel(item.category)} · {newsroomMessages.reviewAuthor}: {item.authorName ?? "—"} ·{" "}
            {newsroomMessages.reviewSubmittedAt} <time dateTime={item.changedAt}>{formatDateTime(item.changedAt)}</time>
          </p>
        </li>
      ))}
    </ul>
  );
}

/** An author's articles an editor sent back, each with its note. */
export function SentBackList({ items }: { items: SentBackItem[] }) {
  return (
    <ul className="divide-y divide-stone-200" data-testid="sent-back">
      {items.map((item) => (
        <li key={item.id} className="py-3">
          <Link to={editPath(item.id)} className="font-bold break-words hover:text-brand-700">
            {item.title}
          </Link>
          <EditorNote note={item.note} />
        </li>
      ))}
    </ul>
  );
}

/** The note an editor left, as its author sees it. */
export function EditorNote({ note }: { note: string }) {
  return (
    <div className="mt-2 rounded border border-amber-700/30 bg-amber-50 p-3" data-testid="editor-note">
      <p className="mb-1 text-sm font-bold text-amber-900">{newsroomMessages.editorNote}</p>
      <p className="break-words whitespace-pre-line">{note}</p>
    </div>
  );
}

/** On the edit page of an article in review: an editor sends it back with a note (publishing and scheduling are the form's). */
export function ReviewPanel({ id }: { id: string }) {
  return (
    <section
      aria-labelledby="review-title"
      className="mb-6 rounded border border-stone-300 bg-stone-50 p-4"
      data-testid="review-panel"
    >
      <h2 id="review-title" className="mb-1 text-lg font-bold">
        {newsroomMessages.reviewTitle}
      </h2>
      <p className="mb-3 text-sm text-stone-600">{newsroomMessages.reviewHint}</p>
      <form method="post" action={`${editPath(id)}/send-back`} className="space-y-3">
        <label htmlFor="review-note" className="block font-bold">
          {newsroomMessages.reviewNote}
        </label>
        <textarea
          id="review-note"
          name="note"
          required
          rows={3}
          maxLength={REVIEW_NOTE_MAX}
          className="w-full rounded border border-stone-300 bg-white px-3 py-2"
        />
        <button
          type="submit"
          className="rounded border border-stone-300 bg-white px-3 py-1.5 font-bold hover:bg-stone-100"
        >
          {newsroomMessages.sendBack}
        </button>
      </form>
    </section>
  );
}
