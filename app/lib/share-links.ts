import { messages } from "./messages";
import { taggedLink } from "./reader-classes";

export type ShareTarget = "whatsapp" | "facebook" | "telegram" | "x";

/**
 * A query value with its ASCII escaped and other letters as they are: the browser encodes an Arabic
 * letter in UTF-8 when it follows the link, so the page need not carry it as six bytes (`%D8%B9`).
 */
export function queryValue(text: string): string {
  return text.replace(/[^\w.!~*'()\u0080-\uffff-]/g, encodeURIComponent);
}

/**
 * Direct share links of the networks local readers use; text and URL are encoded here. WhatsApp and
 * Telegram send no referrer, so the link they carry says where it was shared (decision 039), in the
 * short tags `wa` and `tg`: the article page carries these links, and readers see the tag they share.
 */
export function shareLinks(url: string, text: string): Record<ShareTarget, string> {
  const u = queryValue(url);
  const fromTelegram = queryValue(taggedLink(url, "tg"));
  const t = queryValue(text);
  return {
    whatsapp: `https://wa.me/?text=${queryValue(`${text} ${taggedLink(url, "wa")}`)}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    telegram: `https://t.me/share/url?url=${fromTelegram}&text=${t}`,
    x: `https://x.com/intent/post?text=${t}&url=${u}`,
  };
}

/** Copies a link for the reader and tells them, in an alert, whether it worked (docs/product.md#short-links). */
export async function copyLink(url: string, copiedMessage: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    window.alert(copiedMessage);
  } catch {
    window.alert(messages.shortLinkCopyFailed);
  }
}
