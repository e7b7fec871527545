import { useEffect, useState } from "react";
import { conflictMessages } from "~/lib/newsroom-messages";

/** How often an open form says it is still open; the server forgets it after a minute without. */
export const PRESENCE_HEARTBEAT_MS = 25_000;

function announce(url: string, tab: string, state: "open" | "leave", leaving = false) {
  const body = new FormData();
  body.set("tab", tab);
  body.set("state", state);
  // Leaving: a beacon still goes out while the page unloads.
  if (leaving && navigator.sendBeacon(url, body)) return;
  void fetch(url, { method: "POST", body, headers: { Accept: "application/json" }, keepalive: leaving }).catch(
    () => {},
  );
}

/**
 * The others who have this story's edit form open: the form announces itself (at once, every 25 s,
 * and on leaving), and hears the names over Server-Sent Events.
 */
export function useEditPresence(articleId: string): string[] {
  const [names, setNames] = useState<string[]>([]);
  useEffect(() => {
    const url = `/api/news/${encodeURIComponent(articleId)}/presence`;
    const tab = crypto.randomUUID();
    announce(url, tab, "open");
    const heartbeat = window.setInterval(() => announce(url, tab, "open"), PRESENCE_HEARTBEAT_MS);
    const stream = new EventSource(url);
    stream.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as { editors?: unknown };
      if (Array.isArray(data.editors))
        setNames(data.editors.filter((name): name is string => typeof name === "string"));
    };
    const leave = () => announce(url, tab, "leave", true);
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      window.clearInterval(heartbeat);
      stream.close();
      leave();
    };
  }, [articleId]);
  return names;
}

/** "يحرر هذا الخبر الآن: …" while others have the form open. */
export function EditPresence({ articleId }: { articleId: string }) {
  const names = useEditPresence(articleId);
  return (
    <p
      aria-live="polite"
      data-testid="edit-presence"
      className={
        names.length ? "mb-4 rounded border border-amber-600/30 bg-amber-50 p-3 font-bold text-amber-900" : "sr-only"
      }
    >
      {names.length > 0 && `${conflictMessages.editingNow} ${names.join(conflictMessages.nameSeparator)}`}
    </p>
  );
}
