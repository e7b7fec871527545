import { messages } from "~/lib/messages";
import { settingsMessages } from "~/lib/newsroom-messages";
import { readRichDocument, type RichDocument } from "~/lib/rich-text/document";
import { settingsFormSchema } from "~/lib/site-settings-schema";
import { z } from "~/lib/zod";
import {
  INFO_PAGE_KEYS,
  SOCIAL_NETWORKS,
  type InfoPageKey,
  type SiteImages,
  type SiteSettings,
} from "~/lib/site-settings";
import type { DB } from "~/server/db/db.server";
import type { MediaStorage } from "~/server/media/storage.server";
import type { StagedFile, UploadLimits } from "~/server/http/multipart-form.server";
import type { ReadFormOptions } from "~/server/http/read-form.server";
import { deleteSiteImages, MAX_SITE_IMAGE_BYTES, SITE_IMAGE_UPLOADS, storeSiteImage } from "./site-images.server";
import { readSiteSettings, writeSiteSettings } from "./site-settings.server";

export type SettingsSite = { db: DB; storage: MediaStorage };

const MAX_FIELDS = 30;
const MAX_PAGE_FIELD_BYTES = 800 * 1024; // a document at MAX_DOCUMENT_JSON_LENGTH, in Arabic's two bytes a letter

/** The settings form: its images and its text, links and pages. */
export const SETTINGS_FORM_LIMITS: UploadLimits = {
  files: Object.fromEntries(
    SITE_IMAGE_UPLOADS.map((field) => [
      field,
      { maxBytes: MAX_SITE_IMAGE_BYTES, tooLarge: settingsMessages.settingsImageTooLarge },
    ]),
  ),
  maxFiles: SITE_IMAGE_UPLOADS.length,
  maxFields: MAX_FIELDS,
  tooMany: { form: messages.formMalformed },
  maxFieldBytes: MAX_PAGE_FIELD_BYTES,
  maxBodyBytes: SITE_IMAGE_UPLOADS.length * MAX_SITE_IMAGE_BYTES + MAX_FIELDS * MAX_PAGE_FIELD_BYTES,
  fieldTooLong: {
    name: settingsMessages.settingsNameTooLong,
    tagline: settingsMessages.settingsTaglineTooLong,
    description: settingsMessages.settingsDescriptionTooLong,
    footerText: settingsMessages.settingsFooterTextTooLong,
    contactAddress: settingsMessages.settingsAddressTooLong,
    ...Object.fromEntries(INFO_PAGE_KEYS.map((key) => [`page_${key}`, settingsMessages.settingsPageInvalid])),
    ...Object.fromEntries(
      SOCIAL_NETWORKS.map((network) => [`social_${network}`, settingsMessages.settingsLinkInvalid]),
    ),
  },
};

/** An information page as its editor sent it (JSON), read into a document: a broken one or a NUL in it is refused. */
const infoPageField = z.unknown().transform((json, ctx) => {
  const document = readRichDocument(typeof json === "string" ? json : "");
  if (typeof document !== "string") return document;
  ctx.addIssue({
    code: "custom",
    message: document === "nul" ? messages.textHasNul : settingsMessages.settingsPageInvalid,
  });
  return z.NEVER;
});
const infoPageFields = Object.fromEntries(INFO_PAGE_KEYS.map((key) => [`page_${key}`, infoPageField])) as Record<
  `page_${InfoPageKey}`,
  typeof infoPageField
>;

/** The settings form's text, links and pages (http/read-form, SETTINGS_FORM_READING): every refusal by its field. */
export const settingsSubmissionSchema = settingsFormSchema.extend(infoPageFields);
export type SettingsForm = z.output<typeof settingsSubmissionSchema>;

/** Each field of the form as it sent it, an absent one empty. */
export const SETTINGS_FORM_READING: ReadFormOptions = {
  values: ({ texts }) =>
    Object.fromEntries(Object.keys(settingsSubmissionSchema.shape).map((name) => [name, texts(name)?.[0] ?? ""])),
};

/** The settings the checked form describes, with the site's images as they are. */
function settingsOf(form: SettingsForm, images: SiteImages): SiteSettings {
  const infoPages = Object.fromEntries(INFO_PAGE_KEYS.map((key) => [key, form[`page_${key}`]])) as Record<
    InfoPageKey,
    RichDocument
  >;
  return {
    name: form.name,
    tagline: form.tagline,
    description: form.description,
    footerText: form.footerText,
    social: Object.fromEntries(
      SOCIAL_NETWORKS.map((network) => [network, form[`social_${network}`]]).filter(([, url]) => url !== ""),
    ),
    contact: { email: form.contactEmail, phone: form.contactPhone, address: form.contactAddress },
    infoPages,
    images,
    alertsPerHour: form.alertsPerHour,
    newsletterHour: form.newsletterHour,
    newsletterRate: form.newsletterRate,
  };
}

/**
 * The settings form's submission: text, links and pages checked first, then the uploaded images made
 * (nothing is stored before every field passed), then one write with its outbox event. Images the new
 * settings replace are removed after the write; on any refusal nothing stored changes.
 */
export async function saveSettings(
  site: SettingsSite,
  form: SettingsForm,
  files: readonly StagedFile[],
  actorId: string,
): Promise<void> {
  const current = await readSiteSettings(site.db);
  const settings = settingsOf(form, current.settings.images);
  const made: string[] = [];
  try {
    for (const file of files) {
      const field = SITE_IMAGE_UPLOADS.find((upload) => upload === file.field);
      if (!field) continue;
      const images = await storeSiteImage(site.storage, field, file.path);
      made.push(...Object.values(images).filter((url): url is string => url !== null));
      settings.images = { ...settings.images, ...images };
    }
    await writeSiteSettings(site.db, settings, actorId);
  } catch (error) {
    await deleteSiteImages(site.storage, made);
    throw error;
  }
  const kept = new Set(Object.values(settings.images));
  await deleteSiteImages(
    site.storage,
    Object.values(current.settings.images).filter((url) => !kept.has(url)),
  );
}
