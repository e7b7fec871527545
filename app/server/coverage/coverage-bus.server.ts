import type { CoverageChange } from "~/lib/live-coverage";

/** A change to one story's coverage under the id of the outbox event that made it. */
export type CoverageNews = { id: number; articleId: string; change: CoverageChange };
type Listener = (news: CoverageNews) => void;

/**
 * How coverage changes reach this process's open streams, by story: the outbox follower publishes in
 * outbox order (site/background.server.ts), whichever process made the change.
 */
export type CoverageBus = {
  publish(news: CoverageNews): void;
  subscribe(articleId: string, listener: Listener): () => void;
  listenerCount(): number;
};

export function createCoverageBus(): CoverageBus {
  const byArticle = new Map<string, Set<Listener>>();
  let count = 0;
  return {
    publish(news) {
      for (const listener of byArticle.get(news.articleId) ?? []) listener(news);
    },
    subscribe(articleId, listener) {
      const set = byArticle.get(articleId) ?? new Set();
      byArticle.set(articleId, set.add(listener));
      count++;
      return () => {
        if (!set.delete(listener)) return;
        count--;
        if (set.size === 0) byArticle.delete(articleId);
      };
    },
    listenerCount: () => count,
  };
}
