import {
  DEFAULT_ALERTS_PER_HOUR,
  DEFAULT_NEWSLETTER_HOUR,
  DEFAULT_NEWSLETTER_RATE,
  NO_SITE_IMAGES,
  type SiteSettings,
} from "../../lib/site-settings";
import { demoInfoPages } from "./demo-info-pages";

/** The demo site's own settings: the outlet أخبار الشمال, its words, its pages on the networks. */
export const demoSettings: SiteSettings = {
  name: "أخبار الشمال",
  tagline: "أخبار طرابلس والشمال لحظة بلحظة",
  description:
    "موقع إخباري محلي يغطي أخبار طرابلس وعكار والشمال اللبناني، إلى جانب الأخبار الدولية والتربوية والرياضية.",
  footerText: "موقع إخباري مستقل يغطي أخبار طرابلس والشمال اللبناني بموضوعية ودقة.",
  social: {
    facebook: "https://www.facebook.com/akhbar.alshamal.demo",
    x: "https://x.com/akhbar_shamal_demo",
    instagram: "https://www.instagram.com/akhbar.alshamal.demo/",
    telegram: "https://t.me/akhbar_shamal_demo",
    whatsapp: "https://wa.me/96100000000",
  },
  contact: { email: "newsroom@example.com", phone: "+961 6 000 000", address: "طرابلس، شمال لبنان" },
  infoPages: demoInfoPages,
  images: NO_SITE_IMAGES,
  alertsPerHour: DEFAULT_ALERTS_PER_HOUR,
  newsletterHour: DEFAULT_NEWSLETTER_HOUR,
  newsletterRate: DEFAULT_NEWSLETTER_RATE,
};
