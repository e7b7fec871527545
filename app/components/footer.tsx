import { Link } from "react-router";
import { categoryLabel, categoryPath, CATEGORIES } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { settingsMessages } from "~/lib/newsroom-messages";
import type { SocialNetwork } from "~/lib/site-settings";
import { NewsletterForm } from "./newsletter-form";
import { usePrerendered } from "./prerendered";
import { useSiteFrame } from "./use-site-frame";
import { FacebookIcon, InstagramIcon, TelegramIcon, WhatsappIcon, XIcon } from "./icons";

const SITE_LINKS = [
  { to: "/who", label: messages.whoTitle },
  { to: "/contact", label: messages.contactTitle },
  { to: "/privacy", label: messages.privacyTitle },
  { to: "/development", label: messages.developmentTitle },
];

/** The networks in the footer's order, each with its name and icon; the outlet's page on each comes from the settings. */
const SOCIAL_NETWORK_LINKS: { network: SocialNetwork; label: string; Icon: typeof FacebookIcon }[] = [
  { network: "facebook", label: "Facebook", Icon: FacebookIcon },
  { network: "x", label: "X", Icon: XIcon },
  { network: "instagram", label: "Instagram", Icon: InstagramIcon },
  { network: "telegram", label: "Telegram", Icon: TelegramIcon },
  { network: "whatsapp", label: "WhatsApp", Icon: WhatsappIcon },
];

const FOOTER_CLASS = "mt-12 bg-stone-900 text-stone-300";

export function Footer() {
  const prerendered = usePrerendered();
  if (prerendered) return <footer className={FOOTER_CLASS} dangerouslySetInnerHTML={{ __html: prerendered.footer }} />;
  return (
    <footer className={FOOTER_CLASS}>
      <FooterContent year={new Date().getFullYear()} />
    </footer>
  );
}

/** What the <footer> holds; rendered on its own once a year at most (shell-regions.server). */
export function FooterContent({ year }: { year: number }) {
  const site = useSiteFrame();
  const social = SOCIAL_NETWORK_LINKS.flatMap((link) => {
    const href = site.social[link.network];
    return href ? [{ ...link, href }] : [];
  });
  const { email, phone, address } = site.contact;
  return (
    <>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="lg:col-span-2">
          <p className="text-xl font-bold text-white" data-testid="footer-site-name">
            {site.name}
          </p>
          {site.footerText ? (
            <p className="mt-2 max-w-md leading-relaxed whitespace-pre-line">{site.footerText}</p>
          ) : null}
          {email || phone || address ? (
            <ul className="mt-3 space-y-1 text-sm" aria-label={settingsMessages.settingsContact}>
              {email ? (
                <li>
                  {`${settingsMessages.contactEmailLabel}: `}
                  <a href={`mailto:${email}`} dir="ltr" className="underline hover:text-white">
                    {email}
                  </a>
                </li>
              ) : null}
              {phone ? (
                <li>
                  {`${settingsMessages.contactPhoneLabel}: `}
                  <a href={`tel:${phone.replace(/[^0-9+]/g, "")}`} dir="ltr" className="underline hover:text-white">
                    {phone}
                  </a>
                </li>
              ) : null}
              {address ? <li>{`${settingsMessages.contactAddressLabel}: ${address}`}</li> : null}
            </ul>
          ) : null}
          {social.length > 0 ? <h2 className="mt-5 font-bold text-white">{messages.footerFollow}</h2> : null}
          {social.length > 0 ? (
            <ul className="mt-2 flex gap-2" data-testid="footer-social">
              {social.map(({ href, label, Icon }) => (
                <li key={label}>
                  <a href={href} target="_blank" rel="noreferrer" aria-label={label} className="social-link">
                    <Icon />
                  </a>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <nav aria-labelledby="footer-sections">
          <h2 id="footer-sections" className="font-bold text-white">
            {messages.footerSections}
          </h2>
          <ul className="footer-links mt-2 grid grid-cols-2 gap-x-4 gap-y-1">
            {CATEGORIES.map((category) => (
              <li key={category}>
                <Link discover="none" to={categoryPath(category)}>
                  {categoryLabel(category)}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-site">
          <h2 id="footer-site" className="font-bold text-white">
            {messages.footerSite}
          </h2>
          <ul className="footer-links mt-2 space-y-1">
            {SITE_LINKS.map((link) => (
              <li key={link.to}>
                <Link discover="none" to={link.to}>
                  {link.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      </div>
      <div className="mx-auto max-w-6xl px-4 pb-8">
        <div className="max-w-xl rounded-lg bg-stone-800/60 p-4">
          <NewsletterForm place="footer" tone="dark" />
        </div>
      </div>
      <p className="border-t border-stone-800 px-16 py-4 text-center text-sm">
        {`© ${year} ${site.name}. ${messages.copyright}.`}
      </p>
    </>
  );
}
