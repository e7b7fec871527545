import { formatDateTime } from "~/lib/dates";
import { messages } from "~/lib/messages";
import { lastUpdateAfterPublication, type NewsArticle } from "~/lib/news";

/** "آخر تحديث" and its time, when the article was edited after it was published. */
export function LastUpdate({ article }: { article: Pick<NewsArticle, "publishedAt" | "updatedAt"> }) {
  const updatedAt = lastUpdateAfterPublication(article);
  if (!updatedAt) return null;
  return (
    <span data-testid="last-update">
      {`${messages.lastUpdated}: `}
      <time dateTime={updatedAt}>{formatDateTime(updatedAt)}</time>
    </span>
  );
}
