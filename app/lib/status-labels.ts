import { newsroomMessages } from "./newsroom-messages";
import type { NewsStatus } from "./news";

/** What the dashboard says after a save: what the article became, not always "published". */
export function savedMessage(status: NewsStatus): string {
  switch (status) {
    case "published":
      return newsroomMessages.published;
    case "draft":
      return newsroomMessages.savedAsDraft;
    case "review":
      return newsroomMessages.savedForReview;
    case "scheduled":
      return newsroomMessages.savedAsScheduled;
    case "trashed":
      return newsroomMessages.statusTrashed;
  }
}

export function statusLabel(status: NewsStatus): string {
  const labels: Record<NewsStatus, string> = {
    draft: newsroomMessages.statusDraft,
    review: newsroomMessages.statusReview,
    scheduled: newsroomMessages.statusScheduled,
    published: newsroomMessages.statusPublished,
    trashed: newsroomMessages.statusTrashed,
  };
  return labels[status];
}
