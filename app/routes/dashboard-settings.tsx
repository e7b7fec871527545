import { Form, redirect, useNavigation } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { FormField, input } from "~/components/form-field";
import { RichTextField } from "~/components/rich-text-field";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { newsletterSettingsMessages as nsm, pushMessages, settingsMessages as sm } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { SETTINGS_LIMITS } from "~/lib/site-settings-schema";
import {
  ALERTS_PER_HOUR_MAX,
  NEWSLETTER_RATE_MAX,
  INFO_PAGE_KEYS,
  INFO_PAGE_TITLES,
  SOCIAL_NETWORKS,
  type SocialNetwork,
} from "~/lib/site-settings";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireAdmin } from "~/server/accounts/guards.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { readForm } from "~/server/http/read-form.server";
import {
  saveSettings,
  SETTINGS_FORM_LIMITS,
  SETTINGS_FORM_READING,
  settingsSubmissionSchema,
} from "~/server/site-settings/settings-form.server";
import { readSiteSettings } from "~/server/site-settings/site-settings.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-settings";

export const handle = HYDRATE_DOCUMENT;

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  await requireAdmin(site.auth, request);
  const stored = await readSiteSettings(site.db);
  return { settings: stored.settings, saved: url.searchParams.has("saved") };
}

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireAdmin(site.auth, request);
  const room = site.newsroom;
  return answerForm(async () => {
    await withSubmission(request, room.stagingDir, SETTINGS_FORM_LIMITS, async (form) =>
      saveSettings(room, await readForm(settingsSubmissionSchema, form, SETTINGS_FORM_READING), form.files, actor.id),
    );
    return redirect("/dashboard/settings?saved=1");
  });
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/settings",
    title: `${sm.settingsTitle} | ${siteOf(matches).name}`,
    description: sm.settingsTitle,
    noindex: true,
    image: null,
  });
}

const SOCIAL_LABELS: Record<SocialNetwork, string> = {
  facebook: "Facebook",
  x: "X",
  instagram: "Instagram",
  telegram: "Telegram",
  whatsapp: "WhatsApp",
};
const IMAGE_TYPES = "image/jpeg,image/png,image/webp,image/avif,image/gif";
const fieldset = "space-y-4 rounded-lg bg-white p-4 ring-1 ring-stone-200 sm:p-6";
const legend = "px-1 text-lg font-bold";

function CurrentImage({ url, wide }: { url: string | null; wide?: boolean }) {
  if (!url) return null;
  return (
    <p className="mt-2 flex items-center gap-2 text-sm text-stone-600">
      {sm.settingsCurrentImage}:
      <img
        src={url}
        alt=""
        className={
          wide
            ? "h-16 w-auto rounded ring-1 ring-stone-200"
            : "size-12 rounded bg-stone-100 object-contain ring-1 ring-stone-200"
        }
      />
    </p>
  );
}

export default function DashboardSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { settings, saved } = loaderData;
  const refusal = errorOf(actionData);
  const errors = refusal ? formMessagesOf(refusal) : {};
  const busy = useNavigation().state === "submitting";
  const invalid = (name: string) => (errors[name] ? true : undefined);
  return (
    <section aria-labelledby="settings-title" className="mx-auto max-w-3xl space-y-6">
      <DashboardHeading id="settings-title" title={sm.settingsTitle} />
      {saved && !actionData ? (
        <p role="status" className="rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800">
          {sm.settingsSaved}
        </p>
      ) : null}
      {errors.form ? (
        <p role="alert" className="rounded border border-brand-600/30 bg-brand-50 p-3 font-bold text-brand-700">
          {errors.form}
        </p>
      ) : null}
      <Form method="post" encType="multipart/form-data" className="space-y-6" data-testid="settings-form">
        <fieldset className={fieldset}>
          <legend className={legend}>{sm.settingsIdentity}</legend>
          <FormField id="name" label={sm.settingsName} error={errors.name}>
            <input
              id="name"
              name="name"
              required
              maxLength={SETTINGS_LIMITS.name}
              defaultValue={settings.name}
              className={input}
              aria-invalid={invalid("name")}
            />
          </FormField>
          <FormField id="tagline" label={sm.settingsTagline} error={errors.tagline}>
            <input
              id="tagline"
              name="tagline"
              maxLength={SETTINGS_LIMITS.tagline}
              defaultValue={settings.tagline}
              className={input}
              aria-invalid={invalid("tagline")}
            />
          </FormField>
          <FormField id="description" label={sm.settingsDescription} error={errors.description}>
            <textarea
              id="description"
              name="description"
              rows={3}
              maxLength={SETTINGS_LIMITS.description}
              defaultValue={settings.description}
              className={input}
              aria-invalid={invalid("description")}
            />
          </FormField>
          <FormField id="footerText" label={sm.settingsFooterText} error={errors.footerText}>
            <textarea
              id="footerText"
              name="footerText"
              rows={2}
              maxLength={SETTINGS_LIMITS.footerText}
              defaultValue={settings.footerText}
              className={input}
              aria-invalid={invalid("footerText")}
            />
          </FormField>
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{sm.settingsImages}</legend>
          <FormField id="logo" label={sm.settingsLogo} error={errors.logo}>
            <input
              id="logo"
              name="logo"
              type="file"
              accept={IMAGE_TYPES}
              className={input}
              aria-invalid={invalid("logo")}
            />
            <CurrentImage url={settings.images.logo} />
          </FormField>
          <FormField id="favicon" label={sm.settingsFavicon} error={errors.favicon}>
            <input
              id="favicon"
              name="favicon"
              type="file"
              accept={IMAGE_TYPES}
              className={input}
              aria-invalid={invalid("favicon")}
            />
            <CurrentImage url={settings.images.appleTouch} />
          </FormField>
          <FormField id="shareImage" label={sm.settingsShareImage} error={errors.shareImage}>
            <input
              id="shareImage"
              name="shareImage"
              type="file"
              accept={IMAGE_TYPES}
              className={input}
              aria-invalid={invalid("shareImage")}
            />
            <CurrentImage url={settings.images.shareImage} wide />
          </FormField>
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{sm.settingsSocial}</legend>
          {SOCIAL_NETWORKS.map((network) => (
            <FormField
              key={network}
              id={`social_${network}`}
              label={SOCIAL_LABELS[network]}
              error={errors[`social_${network}`]}
            >
              <input
                id={`social_${network}`}
                name={`social_${network}`}
                type="url"
                dir="ltr"
                inputMode="url"
                maxLength={SETTINGS_LIMITS.link}
                defaultValue={settings.social[network] ?? ""}
                placeholder="https://"
                className={`${input} text-start`}
                aria-invalid={invalid(`social_${network}`)}
              />
            </FormField>
          ))}
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{sm.settingsContact}</legend>
          <FormField id="contactEmail" label={sm.settingsEmail} error={errors.contactEmail}>
            <input
              id="contactEmail"
              name="contactEmail"
              type="email"
              dir="ltr"
              maxLength={SETTINGS_LIMITS.email}
              defaultValue={settings.contact.email}
              className={`${input} text-start`}
              aria-invalid={invalid("contactEmail")}
            />
          </FormField>
          <FormField id="contactPhone" label={sm.settingsPhone} error={errors.contactPhone}>
            <input
              id="contactPhone"
              name="contactPhone"
              type="tel"
              dir="ltr"
              maxLength={SETTINGS_LIMITS.phone}
              defaultValue={settings.contact.phone}
              className={`${input} text-start`}
              aria-invalid={invalid("contactPhone")}
            />
          </FormField>
          <FormField id="contactAddress" label={sm.settingsAddress} error={errors.contactAddress}>
            <input
              id="contactAddress"
              name="contactAddress"
              maxLength={SETTINGS_LIMITS.address}
              defaultValue={settings.contact.address}
              className={input}
              aria-invalid={invalid("contactAddress")}
            />
          </FormField>
          <FormField id="alertsPerHour" label={pushMessages.perHourLimit} error={errors.alertsPerHour}>
            <input
              id="alertsPerHour"
              name="alertsPerHour"
              type="number"
              min={1}
              max={ALERTS_PER_HOUR_MAX}
              dir="ltr"
              defaultValue={settings.alertsPerHour}
              className={`${input} text-start`}
              aria-invalid={invalid("alertsPerHour")}
            />
          </FormField>
          <FormField id="newsletterHour" label={nsm.hour} error={errors.newsletterHour}>
            <input
              id="newsletterHour"
              name="newsletterHour"
              type="number"
              min={0}
              max={23}
              dir="ltr"
              defaultValue={settings.newsletterHour}
              className={`${input} text-start`}
              aria-invalid={invalid("newsletterHour")}
            />
          </FormField>
          <FormField id="newsletterRate" label={nsm.rate} error={errors.newsletterRate}>
            <input
              id="newsletterRate"
              name="newsletterRate"
              type="number"
              min={1}
              max={NEWSLETTER_RATE_MAX}
              dir="ltr"
              defaultValue={settings.newsletterRate}
              className={`${input} text-start`}
              aria-invalid={invalid("newsletterRate")}
            />
          </FormField>
        </fieldset>

        <fieldset className={fieldset}>
          <legend className={legend}>{sm.settingsInfoPages}</legend>
          {INFO_PAGE_KEYS.map((key) => (
            <RichTextField
              key={key}
              name={`page_${key}`}
              label={INFO_PAGE_TITLES[key]}
              defaultValue={settings.infoPages[key]}
              error={errors[`page_${key}`]}
            />
          ))}
        </fieldset>

        <button
          type="submit"
          disabled={busy}
          className="rounded bg-brand-600 px-6 py-2 font-bold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {sm.settingsSave}
        </button>
      </Form>
    </section>
  );
}
