import { UTM_PARAMETER } from "./reader-classes";
/** The push API this site's server answers (docs/decisions/038). */
export const PUSH_API = {
  key: "/api/push/key",
  subscriptions: "/api/push/subscriptions",
  opened: "/api/push/opened",
} as const;

/** A breaking-news alert as the server sends it, once the browser has decrypted it. */
export type PushAlert = {
  alertId: number;
  title: string;
  body: string;
  /** A story's path on this site: /news/… */
  url: string;
  image: string | null;
  icon: string;
  tag: string;
  /** This delivery's token: an open is counted with it, once (null from a payload without one). */
  open: string | null;
};

/** What the service worker passes to showNotification; `image` is not in TypeScript's DOM types yet. */
export type AlertNotification = {
  title: string;
  options: NotificationOptions & { image?: string; data: { alertId: number; url: string; open: string | null } };
};

const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/** The alert in a push message's JSON, or null when the message is not one of ours. */
export function pushAlertOf(data: unknown): PushAlert | null {
  if (typeof data !== "object" || data === null) return null;
  const { alertId, title, body, url, image, icon, tag, open = null } = data as Record<string, unknown>;
  if (typeof alertId !== "number" || !Number.isSafeInteger(alertId)) return null;
  if (!isText(title) || typeof body !== "string" || !isText(icon) || !isText(tag)) return null;
  if (!isText(url) || !url.startsWith("/news/")) return null;
  if (image !== null && !isText(image)) return null;
  if (open !== null && !isText(open)) return null;
  return { alertId, title, body, url, image, icon, tag, open };
}

/** The notification an alert shows: Arabic, right to left, the site's icon and the story's picture. */
export function alertNotification(alert: PushAlert): AlertNotification {
  return {
    title: alert.title,
    options: {
      body: alert.body,
      dir: "rtl",
      lang: "ar",
      icon: alert.icon,
      ...(alert.image ? { image: alert.image } : {}),
      tag: alert.tag,
      data: { alertId: alert.alertId, url: alert.url, open: alert.open },
    },
  };
}

/**
 * The story a clicked notification opens, as an address of this site, and the open to count (its
 * alert and token; null without a token), or null when its data is not ours.
 */
export function alertTarget(
  data: unknown,
  origin: string,
): { url: string; opened: { alertId: number; open: string } | null } | null {
  if (typeof data !== "object" || data === null) return null;
  const { alertId, url, open } = data as Record<string, unknown>;
  if (typeof alertId !== "number" || typeof url !== "string" || !url.startsWith("/news/")) return null;
  const target = new URL(url, origin);
  if (target.origin !== origin) return null;
  target.searchParams.set(UTM_PARAMETER, "push");
  return { url: target.href, opened: isText(open) ? { alertId, open } : null };
}
