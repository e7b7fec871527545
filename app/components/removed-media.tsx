import { createContext, useContext, useMemo, type ReactNode } from "react";
import { messages } from "~/lib/messages";

/** The stored images an editor removed from the library (earlier versions still name them); none on reader pages. */
const RemovedMedia = createContext<ReadonlySet<string>>(new Set());

/** Pages that show earlier versions (a revision, a comparison) say which of their images were removed. */
export function RemovedMediaProvider({ urls, children }: { urls: readonly string[]; children: ReactNode }) {
  const removed = useMemo(() => new Set(urls), [urls]);
  return <RemovedMedia.Provider value={removed}>{children}</RemovedMedia.Provider>;
}

export function useIsRemoved(url: string): boolean {
  return useContext(RemovedMedia).has(url);
}

/** In place of a removed image: a box that says so, never a broken image. */
export function RemovedImage({ className = "" }: { className?: string }) {
  return (
    <span
      role="img"
      aria-label={messages.removedImage}
      className={`flex items-center justify-center rounded bg-stone-100 p-3 text-center text-sm text-stone-600 ring-1 ring-stone-300 ${className}`}
      data-testid="removed-image"
    >
      {messages.removedImage}
    </span>
  );
}
