import { messages } from "./messages";

export type ShareTarget = "whatsapp" | "facebook" | "telegram" | "x";

/** Direct share links of the networks local readers use; text and URL are encoded here. */
export function shareLinks(url: string, text: string): Record<ShareTarget, string> {
  const u = encodeURIComponent(url);
  const t = encodeURIComponent(text);
  return {
    whatsapp: `https://wa.me/?text=${encodeURIComponent(`${text} ${url}`)}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    telegram: `https://t.me/share/url?url=${u}&text=${t}`,
    x: `https://x.com/intent/post?text=${t}&url=${u}`,
  };
}

/** Copies a link for the reader and tells them, in an alert, whether it worked (SPEC.md §8). */
export async function copyLink(url: string, copiedMessage: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(url);
    window.alert(copiedMessage);
  } catch {
    window.alert(messages.shortLinkCopyFailed);
  }
}
