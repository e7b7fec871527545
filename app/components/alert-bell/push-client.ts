import { PUSH_API } from "~/lib/push-notification";
import { isCategory, type Category } from "~/lib/categories";

/** What the bell can say of this browser: the reader's choice is kept here only to show it again. */
export type BellState =
  | { kind: "checking" }
  | { kind: "unsupported" }
  | { kind: "ios-install" }
  | { kind: "blocked" }
  | { kind: "off" }
  | { kind: "on"; categories: Category[] };

const CHOICE_KEY = "akhbar:alert-categories";
export const SERVICE_WORKER_URL = "/sw.js";

/** iPhone and iPad (iPadOS presents itself as a Mac with a touch screen). */
function isAppleMobile(): boolean {
  return (
    /iPhone|iPad|iPod/.test(navigator.userAgent) || (navigator.platform === "MacIntel" && navigator.maxTouchPoints > 1)
  );
}

function installedOnHomeScreen(): boolean {
  return (
    (navigator as Navigator & { standalone?: boolean }).standalone === true ||
    matchMedia("(display-mode: standalone)").matches
  );
}

function pushAvailable(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function keptChoice(): Category[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CHOICE_KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isCategory) : [];
  } catch {
    return [];
  }
}

export async function bellState(): Promise<BellState> {
  if (!pushAvailable())
    return isAppleMobile() && !installedOnHomeScreen() ? { kind: "ios-install" } : { kind: "unsupported" };
  if (Notification.permission === "denied") return { kind: "blocked" };
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription || Notification.permission !== "granted") return { kind: "off" };
  return { kind: "on", categories: keptChoice() };
}

/** The VAPID public key (base64url) as the bytes pushManager.subscribe takes. */
function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  const text = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

async function sent(response: Promise<Response>): Promise<void> {
  const answer = await response;
  if (!answer.ok) throw new Error(`${answer.url}: ${answer.status}`);
}

const json = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { "Content-Type": "application/json" },
  body: JSON.stringify(body),
});

/**
 * Subscribes this browser (or changes its categories) after the reader's click: the permission is
 * asked here and nowhere else. Resolves to the new state; "blocked" when the reader refused.
 */
export async function subscribe(categories: Category[]): Promise<BellState> {
  const permission = await Notification.requestPermission();
  if (permission === "denied") return { kind: "blocked" };
  if (permission !== "granted") return { kind: "off" };
  const registration = await navigator.serviceWorker
    .register(SERVICE_WORKER_URL, { scope: "/" })
    .then(() => navigator.serviceWorker.ready);
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    const keyAnswer = await fetch(PUSH_API.key);
    if (!keyAnswer.ok) throw new Error(`${PUSH_API.key}: ${keyAnswer.status}`);
    const { publicKey } = (await keyAnswer.json()) as { publicKey: string };
    subscription = await registration.pushManager.subscribe({
      userVisibleOnly: true,
      applicationServerKey: keyBytes(publicKey),
    });
  }
  await sent(fetch(PUSH_API.subscriptions, json("POST", { subscription: subscription.toJSON(), categories })));
  localStorage.setItem(CHOICE_KEY, JSON.stringify(categories));
  return { kind: "on", categories };
}

/** Stops the alerts: the server forgets the subscription, then the browser drops it. */
export async function unsubscribe(): Promise<BellState> {
  const registration = await navigator.serviceWorker.getRegistration("/");
  const subscription = await registration?.pushManager.getSubscription();
  if (subscription) {
    await sent(fetch(PUSH_API.subscriptions, json("DELETE", { endpoint: subscription.endpoint })));
    await subscription.unsubscribe();
  }
  localStorage.removeItem(CHOICE_KEY);
  return { kind: "off" };
}
