import { messages } from "~/lib/messages";
import { copyLink, shareLinks, type ShareTarget } from "~/lib/share-links";
import { island } from "~/islands/island";
import { FacebookIcon, ShareIcon, TelegramIcon, WhatsappIcon, XIcon } from "./icons";

const NETWORKS: { target: ShareTarget; label: string; Icon: typeof XIcon; color: string }[] = [
  { target: "whatsapp", label: "WhatsApp", Icon: WhatsappIcon, color: "bg-[#25d366]" },
  { target: "facebook", label: "Facebook", Icon: FacebookIcon, color: "bg-[#1877f2]" },
  { target: "telegram", label: "Telegram", Icon: TelegramIcon, color: "bg-[#229ed9]" },
  { target: "x", label: "X", Icon: XIcon, color: "bg-black" },
];

/** `url` is the short link when the article has one; `text` is the opening of the article. */
type Props = { url: string; isShortLink: boolean; title: string; text: string };

/**
 * The Web Share API where the browser has it, direct links for WhatsApp, Facebook, Telegram and X,
 * and copy link; all share the short link when there is one.
 */
function Share({ url, isShortLink, title, text }: Props) {
  const links = shareLinks(url, title);

  async function share() {
    if (!navigator.share) {
      window.alert(messages.shareUnsupported);
      return;
    }
    try {
      await navigator.share({ title, text, url });
    } catch {
      // The reader closed the share sheet.
    }
  }

  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="share-bar">
      <button type="button" onClick={share} className="share-button">
        <ShareIcon />
        {messages.share}
      </button>
      {NETWORKS.map(({ target, label, Icon, color }) => (
        <a
          key={target}
          href={links[target]}
          target="_blank"
          rel="noreferrer"
          aria-label={`${messages.shareOn} ${label}`}
          className={`share-link ${color}`}
        >
          <Icon />
        </a>
      ))}
      <button
        type="button"
        onClick={() => copyLink(url, isShortLink ? messages.shortLinkCopied : messages.linkCopied)}
        className="copy-button"
      >
        {messages.copyLink}
      </button>
    </div>
  );
}

export const ShareBar = island("share-bar", Share);
