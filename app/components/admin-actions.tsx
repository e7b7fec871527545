import { useState } from "react";
import { liveMessages, messages } from "~/lib/messages";
import { copyLink } from "~/lib/share-links";
import { island } from "~/islands/island";

/** Copies the absolute short link and says whether it worked (docs/product.md#short-links). */
function CopyShortLink({ shortId, className = "" }: { shortId: string | null; className?: string }) {
  if (!shortId) return null;
  const copy = () => copyLink(new URL(`/${shortId}`, window.location.origin).href, messages.shortLinkCopied);
  return (
    <button type="button" onClick={copy} className={className} data-short-id={shortId}>
      {messages.copyShortLink}
    </button>
  );
}

type DeleteProps = { id: string; confirmText: string; redirectTo: string; className?: string };

/** A delete button that asks first; a plain form post, so it works without JavaScript too. */
function DeleteArticle({ id, confirmText, redirectTo, className = "" }: DeleteProps) {
  const [sent, setSent] = useState(false);
  return (
    <form
      method="post"
      action={`/news/${encodeURIComponent(id)}/delete`}
      onSubmit={(event) => {
        if (sent || !window.confirm(confirmText)) event.preventDefault();
        else setSent(true);
      }}
    >
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className={className} disabled={sent}>
        {messages.delete}
      </button>
    </form>
  );
}

export const CopyShortLinkButton = island("copy-short-link", CopyShortLink);
export const DeleteArticleButton = island("delete-article", DeleteArticle);

export function EditArticleLink({ id, className = "" }: { id: string; className?: string }) {
  return (
    <a href={`/edit-news/${encodeURIComponent(id)}`} className={className}>
      {messages.edit}
    </a>
  );
}

/** The story's live desk (decision 040): its live coverage's updates, posted and managed. */
export function LiveDeskLink({ id, className }: { id: string; className?: string }) {
  return (
    <a href={`/edit-news/${encodeURIComponent(id)}/live`} className={className}>
      {liveMessages.panelTitle}
    </a>
  );
}
