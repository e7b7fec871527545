import type { RichDocument } from "./rich-text/document";

/** A story's live coverage (decision 040): live while the newsroom posts, then closed with a summary. */
export type Coverage = { state: "live" | "closed"; summary: string | null; startedAt: string; endedAt: string | null };

/** One update of a live coverage, as readers see it. */
export type LiveUpdate = {
  id: string;
  body: RichDocument;
  text: string;
  authorId: string;
  authorName: string;
  pinned: boolean;
  alert: boolean;
  createdAt: string;
  updatedAt: string;
};

/** A change to a coverage, as the outbox carries it and the stream tells it. */
export type CoverageChange =
  | { type: "opened" | "closed"; coverage: Coverage }
  | { type: "posted" | "edited"; update: LiveUpdate }
  | { type: "deleted"; id: string };

export type CoverageView = { coverage: Coverage | null; updates: LiveUpdate[] };

/** What the stream tells: a change, or the whole coverage when what was missed cannot be told. */
export type CoverageMessage = CoverageChange | ({ type: "snapshot" } & CoverageView);

export const LIVE_UPDATE_MAX_JSON = 20_000;
export const LIVE_SUMMARY_MAX = 2_000;

/** The anchor of an update on the story's page. */
export const updateAnchor = (id: string) => `update-${id}`;

/** Pinned updates first (the key ones), then the newest first. */
export function orderUpdates(updates: LiveUpdate[]): LiveUpdate[] {
  return [...updates].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id),
  );
}

export function applyCoverageMessage(view: CoverageView, message: CoverageMessage): CoverageView {
  switch (message.type) {
    case "snapshot":
      return { coverage: message.coverage, updates: orderUpdates(message.updates) };
    case "opened":
    case "closed":
      return { ...view, coverage: message.coverage };
    case "posted":
    case "edited":
      return {
        ...view,
        updates: orderUpdates([...view.updates.filter((u) => u.id !== message.update.id), message.update]),
      };
    case "deleted":
      return { ...view, updates: view.updates.filter((u) => u.id !== message.id) };
  }
}
