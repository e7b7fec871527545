import { messages } from "./messages";
import type { NewsStatus } from "./news";

/** What the dashboard says after a save: what the article became, not always "published". */
export function savedMessage(status: NewsStatus): string {
  switch (status) {
    case "published":
      return messages.published;
    case "draft":
      return messages.savedAsDraft;
    case "review":
      return messages.savedForReview;
    case "scheduled":
      return messages.savedAsScheduled;
    case "trashed":
      return messages.statusTrashed;
  }
}

export function statusLabel(status: NewsStatus): string {
  const labels: Record<NewsStatus, string> = {
    draft: messages.statusDraft,
    review: messages.statusReview,
    scheduled: messages.statusScheduled,
    published: messages.statusPublished,
    trashed: messages.statusTrashed,
  };
  return labels[status];
}
