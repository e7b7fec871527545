import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { categoryLabel, isCategory } from "~/lib/categories";
import { errorOf } from "~/lib/error-body";
import { formatDateTime } from "~/lib/dates";
import { liveMessages } from "~/lib/messages";
import { liveDeskMessages } from "~/lib/newsroom-messages";
import type { LiveUpdate } from "~/lib/live-coverage";
import { AlertField } from "~/components/alert-field";
import { RichText } from "~/components/rich-text";
import { RichTextField } from "~/components/rich-text-field";
import type { CoverageDesk as Desk } from "~/server/coverage/coverage-desk.server";

const button = "rounded border border-stone-300 bg-white px-3 py-1 text-sm font-bold hover:bg-stone-50";
const primary = "rounded bg-brand-700 px-4 py-2 font-bold text-white hover:bg-brand-800";

type Refusal = ReturnType<typeof errorOf>;

/**
 * A form of the desk: posts its intent through a fetcher; shows its refusal (its children may show a
 * field's own, named by `shows`, beside the field); tells when it was done.
 */
function DeskForm({
  intent,
  updateId,
  children,
  onDone,
  className,
  confirmText,
  shows,
}: {
  intent: string;
  updateId?: string;
  children: React.ReactNode | ((refusal: Refusal) => React.ReactNode);
  onDone?: () => void;
  className?: string;
  confirmText?: string;
  shows?: string;
}) {
  const fetcher = useFetcher();
  const refusal = errorOf(fetcher.data);
  const done = (fetcher.data as { done?: string } | undefined)?.done;
  useEffect(() => {
    if (fetcher.state === "idle" && done) onDone?.();
    // Once per answer: a new onDone from the parent's render must not call it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.state, fetcher.data]);
  const shownBeside = shows !== undefined && refusal?.fields?.[shows] !== undefined;
  return (
    <fetcher.Form
      method="post"
      className={className}
      onSubmit={(event) => {
        if (confirmText && !window.confirm(confirmText)) event.preventDefault();
      }}
    >
      <input type="hidden" name="intent" value={intent} />
      {updateId ? <input type="hidden" name="updateId" value={updateId} /> : null}
      {typeof children === "function" ? children(refusal) : children}
      {refusal && !shownBeside ? (
        <p role="alert" className="text-sm font-bold text-brand-700">
          {refusal.fields ? Object.values(refusal.fields)[0] : refusal.message}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

function UpdateRow({ update, mayManage, mayChange }: { update: LiveUpdate; mayManage: boolean; mayChange: boolean }) {
  const [editing, setEditing] = useState(false);
  return (
    <li className="flex flex-col gap-2 rounded border border-stone-200 p-3" data-testid="desk-update">
      <div className="flex flex-wrap items-center gap-2 text-sm text-stone-600">
        <time dateTime={update.createdAt}>{formatDateTime(update.createdAt)}</time>
        <span>{update.authorName}</span>
        {update.pinned ? <span className="live-badge">{liveMessages.pinned}</span> : null}
        {update.alert ? <span className="font-bold text-brand-700">{liveDeskMessages.alertUpdate}</span> : null}
      </div>
      {editing ? (
        <DeskForm intent="edit" updateId={update.id} onDone={() => setEditing(false)} className="flex flex-col gap-2">
          <RichTextField
            name="body"
            idBase={`edit-${update.id}`}
            label={liveDeskMessages.edit}
            defaultValue={update.body}
          />
          <button type="submit" className={primary}>
            {liveDeskMessages.save}
          </button>
        </DeskForm>
      ) : (
        <div className="rich-text">
          <RichText document={update.body} />
        </div>
      )}
      <div className="flex flex-wrap gap-2">
        {mayChange && !editing ? (
          <button type="button" className={button} onClick={() => setEditing(true)}>
            {liveDeskMessages.edit}
          </button>
        ) : null}
        {mayManage ? (
          <DeskForm intent={update.pinned ? "unpin" : "pin"} updateId={update.id}>
            <button type="submit" className={button}>
              {update.pinned ? liveDeskMessages.unpin : liveDeskMessages.pin}
            </button>
          </DeskForm>
        ) : null}
        {mayChange ? (
          <DeskForm intent="delete" updateId={update.id} confirmText={liveDeskMessages.confirmDelete}>
            <button type="submit" className={`${button} text-brand-700`}>
              {liveDeskMessages.delete}
            </button>
          </DeskForm>
        ) : null}
      </div>
    </li>
  );
}

/** Who an update's alert reaches: the audience rule of a story's own alert (docs/product.md, Web Push alerts). */
function alertAudience(category: string): string {
  if (category === "breaking") return liveDeskMessages.alertHintBreaking;
  return liveDeskMessages.alertHintCategory(isCategory(category) ? categoryLabel(category) : category);
}

const EMPTY_DOCUMENT = { type: "doc", content: [] } as const;

/** The newsroom's side of a live coverage (decision 040): open it, post, edit, pin, delete, close. */
export function CoverageDesk({
  desk,
  storyPath,
  articleId,
  submissionId,
}: {
  desk: Desk;
  storyPath: string;
  articleId: string;
  submissionId: string;
}) {
  const [posted, setPosted] = useState(0);
  const live = desk.coverage?.state === "live";
  return (
    <section
      aria-labelledby="live-desk-title"
      className="mx-auto flex max-w-3xl flex-col gap-6 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200"
    >
      <header className="flex flex-col gap-2">
        <h1 id="live-desk-title" className="text-2xl font-bold">
          {liveMessages.panelTitle}
          {live ? <span className="live-badge ms-2 align-middle">{liveMessages.live}</span> : null}
        </h1>
        <p className="text-lg">
          <a href={storyPath} className="underline">
            {desk.title}
          </a>
        </p>
        <p className="text-sm text-stone-600">{liveDeskMessages.panelHint}</p>
      </header>
      {!live && desk.coverage ? (
        <p className="rounded bg-stone-100 p-3" data-testid="desk-closed">
          {liveMessages.closed}
          {desk.coverage.summary ? `: ${desk.coverage.summary}` : ""}
        </p>
      ) : null}
      {!live && desk.mayManage ? (
        <DeskForm intent="open">
          <button type="submit" className={primary}>
            {liveDeskMessages.open}
          </button>
        </DeskForm>
      ) : null}
      {live ? (
        <DeskForm
          intent="post"
          onDone={() => setPosted((n) => n + 1)}
          className="flex flex-col gap-3"
          shows="sendAlert"
        >
          {(refusal) => (
            <>
              {/* The form's key, new after each post: the same form sent again (an answer lost) posts once. */}
              <input type="hidden" name="submissionId" value={submissionId} />
              <RichTextField
                key={`body-${posted}`}
                name="body"
                label={liveDeskMessages.newUpdate}
                defaultValue={EMPTY_DOCUMENT as never}
              />
              {desk.mayManage ? (
                <AlertField
                  key={`alert-${posted}`}
                  error={refusal?.fields?.sendAlert}
                  label={liveDeskMessages.alertLabel}
                  hint={alertAudience(desk.category)}
                />
              ) : null}
              <button type="submit" className={primary}>
                {liveDeskMessages.post}
              </button>
            </>
          )}
        </DeskForm>
      ) : null}
      {desk.updates.length > 0 ? (
        <ol className="flex flex-col gap-3" aria-label={liveMessages.updatesHeading} data-article={articleId}>
          {desk.updates.map((update) => (
            <UpdateRow
              key={`${update.id}-${update.updatedAt}`}
              update={update}
              mayManage={desk.mayManage}
              mayChange={desk.mayManage || update.authorId === desk.userId}
            />
          ))}
        </ol>
      ) : (
        <p className="text-stone-600">{liveMessages.noUpdates}</p>
      )}
      {live && desk.mayManage ? (
        <DeskForm intent="close" className="flex flex-col gap-2 border-t border-stone-200 pt-4">
          <label htmlFor="live-summary" className="font-bold">
            {liveDeskMessages.summaryLabel}
          </label>
          <textarea id="live-summary" name="summary" rows={3} className="rounded border border-stone-300 p-2" />
          <button type="submit" className={button}>
            {liveDeskMessages.close}
          </button>
        </DeskForm>
      ) : null}
    </section>
  );
}
