import { RichText } from "~/components/rich-text";
import { useSiteFrame } from "~/components/use-site-frame";
import { messages } from "~/lib/messages";
import { settingsMessages } from "~/lib/newsroom-messages";
import { isEmptyDocument } from "~/lib/rich-text/document";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { infoPageDescription } from "~/lib/site-settings-schema";
import { INFO_PAGE_KEYS, INFO_PAGE_TITLES, type InfoPageKey } from "~/lib/site-settings";
import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";
import { cachedSiteSettings } from "~/server/site-settings/site-settings.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/info";

function isInfoPageKey(value: string): value is InfoPageKey {
  return (INFO_PAGE_KEYS as readonly string[]).includes(value);
}

/** An information page: its title is the interface's, its content the site's own (the settings). */
export async function loader({ url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const key = url.pathname.replace(/^\/+|\/+$/g, "");
  if (!isInfoPageKey(key)) throw pageError(new AppError("not-found"));
  const { settings } = await cachedSiteSettings(site.db, site.readCache);
  return { key, document: settings.infoPages[key] };
}

export function meta({ data: loaderData, matches }: Route.MetaArgs) {
  if (!loaderData) return [{ title: messages.pageNotFound }];
  const title = INFO_PAGE_TITLES[loaderData.key];
  return pageMeta({
    ...siteMetaOf(matches),
    path: `/${loaderData.key}`,
    title: `${title} | ${siteOf(matches).name}`,
    description: infoPageDescription(loaderData.document),
  });
}

function ContactDetails() {
  const { email, phone, address } = useSiteFrame().contact;
  if (!email && !phone && !address) return null;
  return (
    <dl
      className="mb-8 grid gap-x-4 gap-y-2 rounded bg-stone-50 p-4 sm:grid-cols-[auto_1fr]"
      data-testid="contact-details"
    >
      {email ? (
        <>
          <dt className="font-bold">{settingsMessages.contactEmailLabel}</dt>
          <dd>
            <a href={`mailto:${email}`} dir="ltr" className="text-brand-700 underline">
              {email}
            </a>
          </dd>
        </>
      ) : null}
      {phone ? (
        <>
          <dt className="font-bold">{settingsMessages.contactPhoneLabel}</dt>
          <dd>
            <a href={`tel:${phone.replace(/[^0-9+]/g, "")}`} dir="ltr" className="text-brand-700 underline">
              {phone}
            </a>
          </dd>
        </>
      ) : null}
      {address ? (
        <>
          <dt className="font-bold">{settingsMessages.contactAddressLabel}</dt>
          <dd>{address}</dd>
        </>
      ) : null}
    </dl>
  );
}

export default function InfoPage({ loaderData }: Route.ComponentProps) {
  const { key, document } = loaderData;
  return (
    <article
      className="mx-auto max-w-3xl rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200 sm:p-10"
      aria-labelledby="info-title"
    >
      <h1 id="info-title" className="mb-6 border-s-4 border-brand-600 ps-3 text-3xl font-bold">
        {INFO_PAGE_TITLES[key]}
      </h1>
      {key === "contact" ? <ContactDetails /> : null}
      {isEmptyDocument(document) ? (
        <p className="text-stone-600">{settingsMessages.infoPageEmpty}</p>
      ) : (
        <div className="rich-text leading-loose text-stone-700">
          <RichText document={document} />
        </div>
      )}
    </article>
  );
}
