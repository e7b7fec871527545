import { newsletterSettingsMessages, settingsMessages as sm, pushMessages } from "./newsroom-messages";
import { documentPlainText, isEmptyDocument, richDocumentSchema, type RichDocument } from "./rich-text/document";
import {
  ALERTS_PER_HOUR_MAX,
  DEFAULT_ALERTS_PER_HOUR,
  DEFAULT_NEWSLETTER_HOUR,
  DEFAULT_NEWSLETTER_RATE,
  NEWSLETTER_RATE_MAX,
  SOCIAL_NETWORKS,
  type SiteSettings,
  type SocialNetwork,
} from "./site-settings";
import { z } from "./zod";

/*
 * The site's own settings: its name and words, images, social pages, contact details and
 * the information pages' content. The settings form and the server read them through the schemas
 * below; every page reads them from the server once per change (server/site-settings/).
 */

export const SETTINGS_LIMITS = {
  name: 80,
  tagline: 160,
  description: 300,
  footerText: 600,
  link: 300,
  email: 200,
  phone: 40,
  address: 300,
};

/** A whole number from a form field between `min` and `max`; left empty, `fallback`. */
function wholeNumber(min: number, max: number, fallback: number, invalid: string) {
  return z
    .string()
    .trim()
    .refine(
      (value) => value === "" || (/^\d{1,4}$/.test(value) && Number(value) >= min && Number(value) <= max),
      invalid,
    )
    .transform((value) => (value === "" ? fallback : Number(value)));
}

/** A link readers follow out of the site: http(s) only, never javascript: or data:. */
export function isWebLink(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname.length > 0;
  } catch {
    return false;
  }
}

// Text a reader sees: no control characters or direction overrides that could disguise it.
const HIDDEN_CHARACTERS = /[\u0000-\u0008\u000B-\u001F\u007F\u202A-\u202E\u2066-\u2069]/;
const text = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .refine((value) => !HIDDEN_CHARACTERS.test(value), sm.settingsHiddenCharacters);

const link = z
  .string()
  .trim()
  .max(SETTINGS_LIMITS.link, sm.settingsLinkInvalid)
  .refine((value) => value === "" || isWebLink(value), sm.settingsLinkInvalid);

/** What the settings form posts as text (the files and the rich fields are read beside it). */
export const settingsFormSchema = z.object({
  name: text(SETTINGS_LIMITS.name, sm.settingsNameTooLong).pipe(z.string().min(1, sm.settingsNameRequired)),
  tagline: text(SETTINGS_LIMITS.tagline, sm.settingsTaglineTooLong),
  description: text(SETTINGS_LIMITS.description, sm.settingsDescriptionTooLong),
  footerText: text(SETTINGS_LIMITS.footerText, sm.settingsFooterTextTooLong),
  ...(Object.fromEntries(SOCIAL_NETWORKS.map((network) => [`social_${network}`, link])) as Record<
    `social_${SocialNetwork}`,
    typeof link
  >),
  contactEmail: text(SETTINGS_LIMITS.email, sm.settingsEmailInvalid).refine(
    (value) => value === "" || z.email().safeParse(value).success,
    sm.settingsEmailInvalid,
  ),
  contactPhone: text(SETTINGS_LIMITS.phone, sm.settingsPhoneInvalid).refine(
    (value) => /^[0-9+()\s-]*$/.test(value),
    sm.settingsPhoneInvalid,
  ),
  contactAddress: text(SETTINGS_LIMITS.address, sm.settingsAddressTooLong),
  // Left empty: the default.
  alertsPerHour: z
    .string()
    .trim()
    .refine(
      (value) =>
        value === "" || (/^\d{1,3}$/.test(value) && Number(value) >= 1 && Number(value) <= ALERTS_PER_HOUR_MAX),
      pushMessages.perHourLimitInvalid,
    )
    .transform((value) => (value === "" ? DEFAULT_ALERTS_PER_HOUR : Number(value))),
  newsletterHour: wholeNumber(0, 23, DEFAULT_NEWSLETTER_HOUR, newsletterSettingsMessages.hourInvalid),
  newsletterRate: wholeNumber(1, NEWSLETTER_RATE_MAX, DEFAULT_NEWSLETTER_RATE, newsletterSettingsMessages.rateInvalid),
});

const imagePath = z
  .string()
  .regex(/^\/(media\/site-images\/[A-Za-z0-9._-]+|[a-z0-9-]+\.(png|svg))$/)
  .nullable();

/** The stored settings as the server reads them back (never trusted blindly: a bad row reads as neutral). */
export const storedSettingsSchema: z.ZodType<SiteSettings> = z.object({
  name: z.string().min(1),
  tagline: z.string(),
  description: z.string(),
  footerText: z.string(),
  social: z.partialRecord(z.enum(SOCIAL_NETWORKS), z.string().refine(isWebLink)),
  contact: z.object({ email: z.string(), phone: z.string(), address: z.string() }),
  infoPages: z.object({
    who: richDocumentSchema,
    contact: richDocumentSchema,
    privacy: richDocumentSchema,
    development: richDocumentSchema,
  }),
  images: z.object({
    logo: imagePath,
    icon192: imagePath,
    icon512: imagePath,
    favicon32: imagePath,
    appleTouch: imagePath,
    shareImage: imagePath,
  }),
  alertsPerHour: z.number().int().min(1).max(ALERTS_PER_HOUR_MAX).default(DEFAULT_ALERTS_PER_HOUR),
  newsletterHour: z.number().int().min(0).max(23).default(DEFAULT_NEWSLETTER_HOUR),
  newsletterRate: z.number().int().min(1).max(NEWSLETTER_RATE_MAX).default(DEFAULT_NEWSLETTER_RATE),
}) as z.ZodType<SiteSettings>;

/** An information page's meta description: its text's beginning, or the neutral line while empty. */
export function infoPageDescription(document: RichDocument): string {
  if (isEmptyDocument(document)) return sm.infoPageEmpty;
  const text = documentPlainText(document).replace(/\s+/g, " ");
  return text.length <= 160 ? text : `${text.slice(0, 157).trimEnd()}…`;
}
