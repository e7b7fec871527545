import type { EmbedNode } from "./document";

export type EmbedAttrs = EmbedNode["attrs"];

const YOUTUBE_HOSTS = new Set([
  "youtube.com",
  "www.youtube.com",
  "m.youtube.com",
  "youtube-nocookie.com",
  "www.youtube-nocookie.com",
]);
const X_HOSTS = new Set(["x.com", "www.x.com", "twitter.com", "www.twitter.com", "mobile.twitter.com", "mobile.x.com"]);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const X_ID = /^[0-9]{1,25}$/;

/** The YouTube video or X post a pasted link names, or null: only these two, only by their id. */
export function embedFromUrl(text: string): EmbedAttrs | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  const host = url.hostname.toLowerCase();
  const parts = url.pathname.split("/").filter(Boolean);
  if (host === "youtu.be") return youtube(parts[0]);
  if (YOUTUBE_HOSTS.has(host)) {
    if (parts[0] === "watch") return youtube(url.searchParams.get("v") ?? undefined);
    if (parts[0] === "shorts" || parts[0] === "embed" || parts[0] === "live") return youtube(parts[1]);
    return null;
  }
  if (X_HOSTS.has(host)) {
    const status = parts.indexOf("status");
    const id = status >= 0 ? parts[status + 1] : undefined;
    return id && X_ID.test(id) ? { provider: "x", id } : null;
  }
  return null;
}

function youtube(id: string | undefined): EmbedAttrs | null {
  return id && YOUTUBE_ID.test(id) ? { provider: "youtube", id } : null;
}

/** Where a reader follows an embed: the post on its own site. */
export function embedUrl({ provider, id }: EmbedAttrs): string {
  return provider === "youtube" ? `https://www.youtube.com/watch?v=${id}` : `https://x.com/i/status/${id}`;
}
