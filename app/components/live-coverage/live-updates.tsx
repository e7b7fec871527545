import { useEffect, useRef, useState } from "react";
import { island } from "~/islands/island";
import { formatDateTime } from "~/lib/dates";
import { followEventStream } from "~/lib/event-stream";
import {
  applyCoverageMessage,
  updateAnchor,
  type CoverageMessage,
  type CoverageView,
  type LiveUpdate,
} from "~/lib/live-coverage";
import { liveMessages } from "~/lib/messages";
import { truncate } from "~/lib/news";
import { shareLinks } from "~/lib/share-links";
import { RichText } from "~/components/rich-text";

type Props = CoverageView & {
  articleId: string;
  /** The story's address, for each update's anchor. */
  url: string;
  title: string;
  /** The outbox event this render reflects: the stream starts after it. */
  eventId: number;
};

/** An update's own share text: the story's title and the update's opening. */
const shareText = (title: string, update: LiveUpdate) => `${title}: ${truncate(update.text, 120)}`;

function UpdateItem({ update, url, title }: { update: LiveUpdate; url: string; title: string }) {
  const anchor = updateAnchor(update.id);
  const links = shareLinks(`${url}#${anchor}`, shareText(title, update));
  return (
    <li
      id={anchor}
      className={`live-update${update.pinned ? " live-update-pinned" : ""}`}
      data-testid="live-update"
      data-update-id={update.id}
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-stone-600">
        {update.pinned ? <span className="live-badge">{liveMessages.pinned}</span> : null}
        <a
          href={`#${anchor}`}
          className="font-bold text-stone-800 hover:underline"
          aria-label={liveMessages.updateLink}
        >
          <time dateTime={update.createdAt}>{formatDateTime(update.createdAt)}</time>
        </a>
        <span>{update.authorName}</span>
      </div>
      <div className="rich-text" data-testid="live-update-body">
        <RichText document={update.body} />
      </div>
      <div className="flex flex-wrap gap-3 text-sm">
        <a href={links.whatsapp} target="_blank" rel="noreferrer" className="text-brand-700 underline">
          WhatsApp
        </a>
        <a href={links.x} target="_blank" rel="noreferrer" className="text-brand-700 underline">
          X
        </a>
        <a href={`#${anchor}`} className="text-brand-700 underline">
          {liveMessages.updateLink}
        </a>
      </div>
    </li>
  );
}

/**
 * A story's live coverage on its page (decision 040): every update server-rendered (no JavaScript
 * needed), then changes over Server-Sent Events from the outbox. A reader who has scrolled past the
 * top of the list gets a button with the count of new updates instead of a page that moves.
 */
function LiveUpdates({ articleId, url, title, eventId, ...initial }: Props) {
  const [view, setView] = useState<CoverageView>(initial);
  const [waiting, setWaiting] = useState<LiveUpdate[]>([]);
  const list = useRef<HTMLElement>(null);
  const live = view.coverage?.state === "live";

  useEffect(() => {
    if (initial.coverage?.state !== "live" || typeof EventSource === "undefined") return;
    let lastId = eventId;
    const scrolledPast = () => (list.current?.getBoundingClientRect().top ?? 0) < 0;
    const receive = (event: MessageEvent<string>) => {
      if (event.lastEventId) lastId = Number(event.lastEventId);
      const message = JSON.parse(event.data) as CoverageMessage;
      if (message.type === "posted" && scrolledPast()) {
        setWaiting((held) => [...held.filter((u) => u.id !== message.update.id), message.update]);
        return;
      }
      if (message.type === "snapshot") setWaiting([]);
      if (message.type === "edited")
        setWaiting((held) => held.map((u) => (u.id === message.update.id ? message.update : u)));
      if (message.type === "deleted") setWaiting((held) => held.filter((u) => u.id !== message.id));
      setView((current) => applyCoverageMessage(current, message));
    };
    return followEventStream(() => `/api/news/${encodeURIComponent(articleId)}/live?after=${lastId}`, receive);
  }, [articleId, eventId, initial.coverage?.state]);

  const showWaiting = () => {
    setView((current) =>
      waiting.reduce((next, update) => applyCoverageMessage(next, { type: "posted", update }), current),
    );
    setWaiting([]);
    list.current?.scrollIntoView({ block: "start" });
  };

  return (
    <section
      ref={list}
      className="live-coverage"
      aria-labelledby="live-heading"
      data-testid="live-coverage"
      data-state={view.coverage?.state ?? "none"}
    >
      <h2 id="live-heading" className="flex items-center gap-2 text-xl font-bold">
        {live ? <span className="live-badge">{liveMessages.live}</span> : null}
        {liveMessages.updatesHeading}
      </h2>
      {view.coverage?.state === "closed" ? (
        <div className="rounded bg-stone-100 p-3" data-testid="live-closed">
          <p className="font-bold">{liveMessages.closed}</p>
          {view.coverage.summary ? <p data-testid="live-summary">{view.coverage.summary}</p> : null}
        </div>
      ) : null}
      {waiting.length > 0 ? (
        <button type="button" className="live-new-updates" onClick={showWaiting} data-testid="live-new-updates">
          {liveMessages.newUpdates(waiting.length)}
        </button>
      ) : null}
      {view.updates.length > 0 ? (
        <ol className="flex flex-col gap-4" aria-live="polite">
          {view.updates.map((update) => (
            <UpdateItem key={update.id} update={update} url={url} title={title} />
          ))}
        </ol>
      ) : (
        <p className="text-stone-600">{liveMessages.noUpdates}</p>
      )}
    </section>
  );
}

export const LiveCoverage = island("live-coverage", LiveUpdates);
