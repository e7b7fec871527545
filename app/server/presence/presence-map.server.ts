import type { Clock } from "~/server/platform/clock.server";
import type { OutboxEvent } from "~/server/outbox/outbox.server";

/** Someone who has an article's edit form open. */
export type Editor = { id: string; name: string };

/** How long an open form counts without a heartbeat (the form sends one every PRESENCE_HEARTBEAT_MS). */
export const PRESENCE_TTL_MS = 60_000;
const SWEEP_EVERY_MS = 5_000;

type Tab = { userId: string; name: string; expiresAt: number };
type Listener = (editors: Editor[]) => void;

/**
 * Who has each article's edit form open, in this process: filled from the presence notices the outbox
 * follower reads (every process's announcements), each open tab forgotten PRESENCE_TTL_MS after its
 * last notice by the site's clock. Listeners of an article hear each change of its editors.
 */
export type PresenceMap = {
  /** Takes the presence notices among `events`. */
  consume: (events: OutboxEvent[]) => void;
  /** The article's editors now, each once, by name. */
  editors: (articleId: string) => Editor[];
  subscribe: (articleId: string, listener: Listener) => () => void;
  /** Forgets the tabs whose time ran out and tells listeners; runs every few seconds once started. */
  sweep: () => void;
  start: () => void;
  stop: () => void;
};

const sameEditors = (a: Editor[], b: Editor[]) =>
  a.length === b.length && a.every((editor, index) => editor.id === b[index]!.id && editor.name === b[index]!.name);

export function createPresenceMap(clock: Clock, ttlMs = PRESENCE_TTL_MS): PresenceMap {
  const tabs = new Map<string, Map<string, Tab>>();
  const listeners = new Map<string, Set<Listener>>();
  const shown = new Map<string, Editor[]>();
  let timer: NodeJS.Timeout | undefined;

  const current = (articleId: string): Editor[] => {
    const byUser = new Map<string, Editor>();
    for (const tab of tabs.get(articleId)?.values() ?? []) byUser.set(tab.userId, { id: tab.userId, name: tab.name });
    return [...byUser.values()].sort((a, b) => a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  };

  const tell = (articleId: string) => {
    const editors = current(articleId);
    if (sameEditors(editors, shown.get(articleId) ?? [])) return;
    if (editors.length > 0) shown.set(articleId, editors);
    else shown.delete(articleId);
    for (const listener of listeners.get(articleId) ?? []) listener(editors);
  };

  const forgetExpired = (now: number): string[] => {
    const changed: string[] = [];
    for (const [articleId, open] of tabs) {
      for (const [tab, entry] of open) if (entry.expiresAt <= now) open.delete(tab);
      if (open.size === 0) tabs.delete(articleId);
      changed.push(articleId);
    }
    return changed;
  };

  const sweep = () => {
    const touched = new Set([...forgetExpired(clock.now().getTime()), ...shown.keys()]);
    for (const articleId of touched) tell(articleId);
  };

  return {
    consume(events) {
      const now = clock.now().getTime();
      const touched = new Set<string>();
      for (const event of events) {
        const notice = event.presence;
        if (!notice || !event.articleId) continue;
        const open = tabs.get(event.articleId) ?? new Map<string, Tab>();
        if (notice.state === "leave") open.delete(notice.tab);
        else open.set(notice.tab, { userId: notice.userId, name: notice.name, expiresAt: now + ttlMs });
        if (open.size > 0) tabs.set(event.articleId, open);
        else tabs.delete(event.articleId);
        touched.add(event.articleId);
      }
      for (const articleId of touched) tell(articleId);
    },
    editors(articleId) {
      forgetExpired(clock.now().getTime());
      return current(articleId);
    },
    subscribe(articleId, listener) {
      const set = listeners.get(articleId) ?? new Set<Listener>();
      listeners.set(articleId, set.add(listener));
      return () => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(articleId);
      };
    },
    sweep,
    start() {
      timer ??= setInterval(sweep, SWEEP_EVERY_MS).unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
}
