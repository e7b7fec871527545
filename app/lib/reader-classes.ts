/** Where a reader came from and on what (docs/product.md#analytics): the only things a view keeps. */
export const SOURCES = [
  "facebook",
  "whatsapp",
  "google-search",
  "google-news",
  "x",
  "telegram",
  "instagram",
  "push",
  "newsletter",
  "internal",
  "other-site",
  "direct",
] as const;
export type Source = (typeof SOURCES)[number];

export const DEVICES = ["phone", "tablet", "desktop"] as const;
export type Device = (typeof DEVICES)[number];

/** The `utm_source` our own links carry (share buttons, push alerts, the newsletter) and the names others commonly use. */
const UTM_SOURCES: Record<string, Source> = {
  facebook: "facebook",
  fb: "facebook",
  whatsapp: "whatsapp",
  wa: "whatsapp",
  telegram: "telegram",
  tg: "telegram",
  x: "x",
  twitter: "x",
  instagram: "instagram",
  ig: "instagram",
  push: "push",
  newsletter: "newsletter",
  google: "google-search",
  "google-news": "google-news",
  googlenews: "google-news",
  discover: "google-news",
};

/** Referrer hosts (without `www.`/`m.`/`l.`) to their source; anything under google.* is search. */
const REFERRER_HOSTS: Record<string, Source> = {
  "facebook.com": "facebook",
  "fb.com": "facebook",
  "lm.facebook.com": "facebook",
  "news.google.com": "google-news",
  "discover.google.com": "google-news",
  "com.google.android.googlequicksearchbox": "google-news",
  "t.co": "x",
  "x.com": "x",
  "twitter.com": "x",
  "instagram.com": "instagram",
  "t.me": "telegram",
  "web.telegram.org": "telegram",
  "telegram.org": "telegram",
  "wa.me": "whatsapp",
  "web.whatsapp.com": "whatsapp",
  "whatsapp.com": "whatsapp",
};

/** The utm parameter our share buttons and push alerts add. */
export const UTM_PARAMETER = "utm_source";

/** A link of ours tagged with where it was shared, so a view from an app that sends no referrer still says where it came from. */
export function taggedLink(url: string, source: string): string {
  return `${url}${url.includes("?") ? "&" : "?"}${UTM_PARAMETER}=${encodeURIComponent(source)}`;
}

function hostOf(referrer: string): string | null {
  try {
    const url = new URL(referrer);
    // Android apps refer as android-app://com.example.app/
    const host =
      url.protocol === "android-app:"
        ? url.hostname || (url.pathname.replace(/^\/\//, "").split("/")[0] ?? "")
        : url.hostname;
    return host.toLowerCase();
  } catch {
    return null;
  }
}

/** The source class of a view: our tag or `utm_source` first, then the referrer's host, then direct. */
export function sourceOf(input: { referrer: string; utm: string }, siteHost: string): Source {
  const utm = input.utm.trim().toLowerCase();
  if (utm) return UTM_SOURCES[utm] ?? "other-site";
  if (!input.referrer) return "direct";
  const host = hostOf(input.referrer);
  if (!host) return "direct";
  if (host === siteHost.toLowerCase()) return "internal";
  const bare = host.replace(/^(www|m|l|mobile)\./, "");
  const known = REFERRER_HOSTS[host] ?? REFERRER_HOSTS[bare];
  if (known) return known;
  if (/^google\.[a-z.]+$/.test(bare)) return "google-search";
  return "other-site";
}

/** Phone, tablet or desktop, from the user agent (read, classed and dropped). */
export function deviceOf(userAgent: string): Device {
  if (/iPad|Tablet|PlayBook|Silk|Kindle|Android(?!.*Mobile)/i.test(userAgent)) return "tablet";
  if (/Mobi|iPhone|iPod|Android|Windows Phone/i.test(userAgent)) return "phone";
  return "desktop";
}

/** Crawlers, link previewers, scripts and headless browsers, which never count; nor does a request with no user agent. */
export function isCrawler(userAgent: string): boolean {
  return (
    !userAgent.trim() ||
    /bot\b|bot\/|crawl|spider|slurp|facebookexternalhit|facebookcatalog|embedly|preview|lighthouse|pingdom|curl\/|wget\/|python-requests|python-urllib|aiohttp|httpx|go-http-client|okhttp|axios\/|node-fetch|headlesschrome|phantomjs/i.test(
      userAgent,
    )
  );
}
