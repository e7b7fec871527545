import type { SiteFrame } from "~/lib/site-settings";

type ManifestIcon = { src: string; sizes: string; type: string; purpose?: string };

/** The web app manifest: the site's name, words and icons (its own, made from its logo, or the shipped ones). */
export function webManifest(site: SiteFrame) {
  const { icon192, icon512 } = site.images;
  const icons: ManifestIcon[] =
    icon192 && icon512
      ? [
          { src: icon192, sizes: "192x192", type: "image/png" },
          { src: icon512, sizes: "512x512", type: "image/png" },
          { src: icon512, sizes: "512x512", type: "image/png", purpose: "maskable" },
        ]
      : [
          { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
          { src: "/icon-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
          { src: "/favicon.svg", sizes: "any", type: "image/svg+xml" },
        ];
  return {
    id: "/",
    name: site.name,
    short_name: site.name,
    description: site.description || site.tagline,
    lang: "ar",
    dir: "rtl",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#fafaf9",
    theme_color: "#c8102e",
    categories: ["news"],
    icons,
  };
}
