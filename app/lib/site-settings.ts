import { messages } from "./messages";
import { settingsMessages as sm } from "./newsroom-messages";
import type { RichDocument } from "./rich-text/document";

/*
 * The site's own settings as every page's frame reads them: their shape, the neutral values
 * of a site never set up, and what the header, footer and share tags derive from them. No schema here:
 * reader pages' islands may import this module, and zod stays out of their JavaScript.
 */

export const INFO_PAGE_KEYS = ["who", "contact", "privacy", "development"] as const;
export type InfoPageKey = (typeof INFO_PAGE_KEYS)[number];

export const SOCIAL_NETWORKS = ["facebook", "x", "instagram", "telegram", "whatsapp"] as const;
export type SocialNetwork = (typeof SOCIAL_NETWORKS)[number];

/** The images the site makes from its uploads, each at the sizes its uses need (server/site-settings/site-images). */
export type SiteImages = {
  /** Header and JSON-LD logo, square. */
  logo: string | null;
  /** The manifest's icons, made from the logo. */
  icon192: string | null;
  icon512: string | null;
  favicon32: string | null;
  appleTouch: string | null;
  /** Open Graph image of pages without their own, 1200×630. */
  shareImage: string | null;
};

export type SiteSettings = {
  name: string;
  tagline: string;
  description: string;
  footerText: string;
  social: Partial<Record<SocialNetwork, string>>;
  contact: { email: string; phone: string; address: string };
  infoPages: Record<InfoPageKey, RichDocument>;
  images: SiteImages;
  /** Web Push alerts the newsroom sends in an hour before each further one asks for confirmation (decision 037). */
  alertsPerHour: number;
  /** The Beirut hour the morning brief goes at, 0–23 (decision 046). */
  newsletterHour: number;
  /** Newsletter mails per second the mail server accepts (decision 046). */
  newsletterRate: number;
};

export const DEFAULT_ALERTS_PER_HOUR = 6;
export const ALERTS_PER_HOUR_MAX = 100;
export const DEFAULT_NEWSLETTER_HOUR = 7;
export const DEFAULT_NEWSLETTER_RATE = 10;
export const NEWSLETTER_RATE_MAX = 1000;

export const NO_SITE_IMAGES: SiteImages = {
  logo: null,
  icon192: null,
  icon512: null,
  favicon32: null,
  appleTouch: null,
  shareImage: null,
};

const EMPTY_DOCUMENT: RichDocument = { type: "doc", content: [] };

/** A site that was never set up: a neutral name, no social pages, empty information pages. */
export const NEUTRAL_SETTINGS: SiteSettings = {
  name: sm.neutralSiteName,
  tagline: "",
  description: "",
  footerText: "",
  social: {},
  contact: { email: "", phone: "", address: "" },
  infoPages: { who: EMPTY_DOCUMENT, contact: EMPTY_DOCUMENT, privacy: EMPTY_DOCUMENT, development: EMPTY_DOCUMENT },
  images: NO_SITE_IMAGES,
  alertsPerHour: DEFAULT_ALERTS_PER_HOUR,
  newsletterHour: DEFAULT_NEWSLETTER_HOUR,
  newsletterRate: DEFAULT_NEWSLETTER_RATE,
};

/** What every page's frame (header, footer, icons, share tags) needs; the information pages stay out of it. */
export type SiteFrame = Omit<SiteSettings, "infoPages" | "alertsPerHour" | "newsletterHour" | "newsletterRate"> & {
  saved: boolean;
};

export function frameOf(settings: SiteSettings, saved: boolean): SiteFrame {
  const { infoPages: _pages, alertsPerHour: _limit, newsletterHour: _hour, newsletterRate: _rate, ...frame } = settings;
  return { ...frame, saved };
}

/** The default share image: the site's own, or the one shipped with the code. */
export function defaultShareImage(frame: Pick<SiteFrame, "images" | "name">): {
  url: string;
  width: number;
  height: number;
  alt: string;
} {
  return { url: frame.images.shareImage ?? "/og-default.png", width: 1200, height: 630, alt: frame.name };
}

export function logoUrl(frame: Pick<SiteFrame, "images">): string {
  return frame.images.logo ?? "/logo.svg";
}

export const INFO_PAGE_TITLES: Record<InfoPageKey, string> = {
  who: messages.whoTitle,
  contact: messages.contactTitle,
  privacy: messages.privacyTitle,
  development: messages.developmentTitle,
};
