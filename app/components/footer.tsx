import { Link } from "react-router";
import { categoryLabel, categoryPath, CATEGORIES } from "~/lib/categories";
import { messages } from "~/lib/messages";
import { usePrerendered } from "./prerendered";
import { FacebookIcon, InstagramIcon, TelegramIcon, WhatsappIcon, XIcon } from "./icons";

const SITE_LINKS = [
  { to: "/who", label: messages.whoTitle },
  { to: "/contact", label: messages.contactTitle },
  { to: "/privacy", label: messages.privacyTitle },
  { to: "/development", label: messages.developmentTitle },
];

const SOCIAL_LINKS = [
  { href: "https://www.facebook.com/", label: "Facebook", Icon: FacebookIcon },
  { href: "https://x.com/", label: "X", Icon: XIcon },
  { href: "https://www.instagram.com/", label: "Instagram", Icon: InstagramIcon },
  { href: "https://t.me/", label: "Telegram", Icon: TelegramIcon },
  { href: "https://wa.me/", label: "WhatsApp", Icon: WhatsappIcon },
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
  return (
    <>
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2 lg:grid-cols-4">
        <div className="lg:col-span-2">
          <p className="text-xl font-bold text-white">{messages.siteName}</p>
          <p className="mt-2 max-w-md leading-relaxed">{messages.footerAbout}</p>
          <h2 className="mt-5 font-bold text-white">{messages.footerFollow}</h2>
          <ul className="mt-2 flex gap-2">
            {SOCIAL_LINKS.map(({ href, label, Icon }) => (
              <li key={label}>
                <a href={href} target="_blank" rel="noreferrer" aria-label={label} className="social-link">
                  <Icon />
                </a>
              </li>
            ))}
          </ul>
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
      <p className="border-t border-stone-800 py-4 text-center text-sm">
        {`© ${year} ${messages.siteName}. ${messages.copyright}.`}
      </p>
    </>
  );
}
