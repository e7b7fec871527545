import { SHARE_TEXT_LENGTH } from "~/lib/constants";
import { messages } from "~/lib/messages";
import { ShareIcon } from "./icons";

type Props = { title: string; content: string; path: string };

/** The Web Share API with the title, the first 100 characters and the short link when there is one. */
export function ShareButton({ title, content, path }: Props) {
  async function share() {
    const url = new URL(path, window.location.origin).href;
    if (!navigator.share) {
      window.alert(messages.shareUnsupported);
      return;
    }
    try {
      await navigator.share({ title, text: content.slice(0, SHARE_TEXT_LENGTH), url });
    } catch {
      // The reader closed the share sheet.
    }
  }
  return (
    <button
      type="button"
      onClick={share}
      className="inline-flex items-center gap-2 rounded border border-stone-300 bg-white px-3 py-1.5 font-bold hover:bg-stone-100"
    >
      <ShareIcon />
      {messages.share}
    </button>
  );
}
