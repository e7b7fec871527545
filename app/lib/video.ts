const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/** The video id of a YouTube watch, share, shorts or embed URL. */
export function youtubeId(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.replace(/^(www\.|m\.)/, "");
  let id: string | null = null;
  if (host === "youtu.be") id = parsed.pathname.slice(1);
  else if (host === "youtube.com" || host === "youtube-nocookie.com") {
    id = parsed.searchParams.get("v") ?? parsed.pathname.match(/^\/(?:embed|shorts|live)\/([^/]+)/)?.[1] ?? null;
  }
  return id && YOUTUBE_ID.test(id) ? id : null;
}

/** The privacy-enhanced player of a YouTube video, the only frame the CSP allows (http/security-headers). */
export function youtubeEmbedUrl(id: string): string {
  return `https://www.youtube-nocookie.com/embed/${id}`;
}

/** The video's own page on YouTube: where the reader goes without JavaScript. */
export function youtubeWatchUrl(id: string): string {
  return `https://www.youtube.com/watch?v=${id}`;
}

export type VideoSource = { kind: "youtube"; id: string } | { kind: "file"; url: string };

/** How to play an article's video; null for anything that is neither YouTube nor an http(s) or local file. */
export function videoSource(url: string | null): VideoSource | null {
  if (!url) return null;
  const id = youtubeId(url);
  if (id) return { kind: "youtube", id };
  if (url.startsWith("/media/news-videos/")) return { kind: "file", url };
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:" ? { kind: "file", url: parsed.href } : null;
  } catch {
    return null;
  }
}
