import { Link, useFetcher } from "react-router";
import { messages } from "~/lib/messages";

/** Copies the absolute short link and says whether it worked (SPEC.md §8). */
export function CopyShortLinkButton({ shortId, className = "" }: { shortId: string | null; className?: string }) {
  if (!shortId) return null;
  async function copy() {
    try {
      await navigator.clipboard.writeText(new URL(`/${shortId}`, window.location.origin).href);
      window.alert(messages.shortLinkCopied);
    } catch {
      window.alert(messages.shortLinkCopyFailed);
    }
  }
  return (
    <button type="button" onClick={copy} className={className} data-short-id={shortId}>
      {messages.copyShortLink}
    </button>
  );
}

/** A delete button that asks first; works as a plain form post without JavaScript. */
export function DeleteArticleButton({
  id,
  confirmText,
  redirectTo,
  className = "",
}: {
  id: string;
  confirmText: string;
  redirectTo: string;
  className?: string;
}) {
  const fetcher = useFetcher();
  return (
    <fetcher.Form
      method="post"
      action={`/news/${encodeURIComponent(id)}/delete`}
      onSubmit={(event) => {
        if (!window.confirm(confirmText)) event.preventDefault();
      }}
    >
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <button type="submit" className={className} disabled={fetcher.state !== "idle"}>
        {messages.delete}
      </button>
    </fetcher.Form>
  );
}

export function EditArticleLink({ id, className = "" }: { id: string; className?: string }) {
  return (
    <Link to={`/edit-news/${encodeURIComponent(id)}`} className={className}>
      {messages.edit}
    </Link>
  );
}
