import { frontPageMessages } from "~/lib/newsroom-messages";
import type { NewsStatus } from "~/lib/news";
import { statusLabel } from "~/lib/status-labels";

/** Above an article that is not published, which only editors can open: readers never see it (decision 031). */
export function PreviewNotice({ status }: { status: NewsStatus }) {
  return (
    <p
      role="note"
      className="mb-4 rounded border border-amber-300 bg-amber-50 p-3 font-bold text-amber-900"
      data-testid="preview-banner"
    >
      {frontPageMessages.previewNotice} ({statusLabel(status)})
    </p>
  );
}
