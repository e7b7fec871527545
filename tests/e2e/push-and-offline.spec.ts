import { createECDH, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type BrowserContext, type Page, type Request } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../../harness/chromium";
import { categoryLabel } from "../../app/lib/categories";
import { alertBellMessages, offlineMessages } from "../../app/lib/messages";
import { E2E_SERVERS } from "./servers";
import { hydrated, watchConsole } from "./support";
import { expect, test } from "./test";

/**
 * Issue 35, the browser's side. Chromium here has no internet, so no push service: an init script
 * stands in for PushManager's subscribe with a subscription whose keys this spec made, and
 * /api/push/* is answered by page routes until the server's side is merged (docs/decisions/038).
 * A push reaches the real service worker through DevTools, and its click is the worker's own handler.
 */
const SHOTS = path.resolve(".tmp/push-and-offline");
const site = E2E_SERVERS.demo;
const VAPID_PUBLIC_KEY = createECDH("prime256v1").generateKeys().toString("base64url");
const SUBSCRIPTION = {
  endpoint: "http://127.0.0.1:9/push-service/subscription-1",
  keys: { p256dh: createECDH("prime256v1").generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") },
};

test.use({ serviceWorkers: "allow" });

type PushCall = { method: string; path: string; body: unknown };

/** Answers /api/push/* as the contract says, for the page and its service worker, and records each call. */
async function pushApiStandIn(context: BrowserContext): Promise<PushCall[]> {
  const calls: PushCall[] = [];
  await context.route("**/api/push/**", async (route, request: Request) => {
    const pathName = new URL(request.url()).pathname;
    calls.push({ method: request.method(), path: pathName, body: request.postData() ? JSON.parse(request.postData()!) : null });
    if (pathName === "/api/push/key") return route.fulfill({ json: { publicKey: VAPID_PUBLIC_KEY } });
    if (pathName === "/api/push/subscriptions" && request.method() === "POST") return route.fulfill({ status: 201, json: {} });
    return route.fulfill({ status: 204 });
  });
  return calls;
}

/** PushManager without a push service: subscribe keeps the spec's subscription (in localStorage, across pages). */
function fakePushService(subscription: typeof SUBSCRIPTION) {
  const KEY = "spec:push-subscription";
  const made = () => ({
    endpoint: subscription.endpoint,
    expirationTime: null,
    toJSON: () => ({ endpoint: subscription.endpoint, expirationTime: null, keys: subscription.keys }),
    unsubscribe: async () => {
      localStorage.removeItem(KEY);
      return true;
    },
  });
  const spec = window as unknown as { permissionAsks: number; serverKey: string };
  spec.permissionAsks = 0;
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const key = new Uint8Array(options!.applicationServerKey as ArrayBuffer);
    spec.serverKey = btoa(String.fromCharCode(...key)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
    localStorage.setItem(KEY, "1");
    return made() as unknown as PushSubscription;
  };
  PushManager.prototype.getSubscription = async function () {
    return (localStorage.getItem(KEY) ? made() : null) as unknown as PushSubscription;
  };
  const ask = Notification.requestPermission.bind(Notification);
  Notification.requestPermission = (...args) => {
    spec.permissionAsks += 1;
    return ask(...args);
  };
}

async function serviceWorkerReady(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
    if (!navigator.serviceWorker.controller) await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }));
  });
}

/** Run in the service worker: its notificationclick handler, given the first notification it shows. */
async function clickFirstNotification() {
  const scope = self as unknown as { registration: ServiceWorkerRegistration; NotificationEvent: new (type: string, init: { notification: Notification }) => Event };
  const [notification] = await scope.registration.getNotifications();
  self.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification: notification! }));
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

test("the bell asks for permission only after its click, subscribes, changes and stops; a push shows an Arabic notification whose click opens the story", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: site.url, viewport: { width: 375, height: 740 } });
  const calls = await pushApiStandIn(context);
  await context.addInitScript(fakePushService, SUBSCRIPTION);
  const page = await context.newPage();
  const noErrors = watchConsole(page);

  await page.goto("/breaking");
  await hydrated(page);
  await serviceWorkerReady(page);
  expect(await page.evaluate(() => [Notification.permission, (window as unknown as { permissionAsks: number }).permissionAsks])).toEqual(["default", 0]);
  expect(calls).toEqual([]);

  const bell = page.locator('.alert-bell[data-place="page"]');
  await shot(page, "bell-closed-375");
  await bell.getByRole("button", { name: alertBellMessages.bell }).click();
  const panel = bell.getByRole("region", { name: alertBellMessages.panelTitle });
  await expect(panel).toContainText(alertBellMessages.stateNotSubscribed);
  await shot(page, "bell-open-375");

  await context.grantPermissions(["notifications"], { origin: site.url });
  await panel.getByLabel(alertBellMessages.withCategories).check();
  await panel.getByRole("button", { name: alertBellMessages.subscribe }).click();
  await expect(panel.getByRole("status")).toHaveText(alertBellMessages.chooseCategory);
  await panel.getByLabel(categoryLabel("sports")).check();
  await panel.getByRole("button", { name: alertBellMessages.subscribe }).click();
  await expect(panel.getByRole("status")).toHaveText(alertBellMessages.saved);
  await expect(panel).toContainText(alertBellMessages.stateSubscribed);
  expect(await page.evaluate(() => ({ ...(window as unknown as { permissionAsks: number; serverKey: string }) }))).toMatchObject({ permissionAsks: 1, serverKey: VAPID_PUBLIC_KEY });
  expect(calls).toEqual([
    { method: "GET", path: "/api/push/key", body: null },
    { method: "POST", path: "/api/push/subscriptions", body: { subscription: { ...SUBSCRIPTION, expirationTime: null }, categories: ["sports"] } },
  ]);

  // Changed from the same place: breaking news only.
  await page.reload();
  await hydrated(page);
  await bell.getByRole("button", { name: alertBellMessages.bell }).click();
  await expect(panel.getByLabel(categoryLabel("sports"))).toBeChecked();
  await panel.getByLabel(alertBellMessages.breakingOnly).check();
  await panel.getByRole("button", { name: alertBellMessages.save }).click();
  await expect(panel.getByRole("status")).toHaveText(alertBellMessages.saved);
  expect(calls.at(-1)).toEqual({ method: "POST", path: "/api/push/subscriptions", body: { subscription: { ...SUBSCRIPTION, expirationTime: null }, categories: [] } });

  await panel.getByRole("button", { name: alertBellMessages.close }).click();
  await page.getByTestId("mobile-menu-toggle").click();
  await page.locator('.alert-bell[data-place="menu"]').getByRole("button", { name: alertBellMessages.bell }).click();
  await expect(page.locator('.alert-bell[data-place="menu"]')).toContainText(alertBellMessages.stateSubscribed);
  await shot(page, "bell-menu-375");
  await page.getByTestId("mobile-menu-toggle").click();
  await page.setViewportSize({ width: 1280, height: 800 });
  await bell.getByRole("button", { name: alertBellMessages.bell }).click();
  await shot(page, "bell-open-1280");
  await panel.getByRole("button", { name: alertBellMessages.close }).click();
  await shot(page, "bell-closed-1280");

  // A push delivered to the service worker through DevTools.
  const { items } = (await (await page.request.get("/api/latest")).json()) as { items: { id: string; slug: string | null; title: string; image: string | null }[] };
  const story = items.find((item) => item.image)!;
  const storyPath = `/news/${story.id}${story.slug ? `/${story.slug}` : ""}`;
  const alert = {
    alertId: 7,
    title: story.title,
    body: "تفاصيل الخبر على الموقع",
    url: storyPath,
    image: new URL(story.image!, site.url).href,
    icon: `${site.url}/icon-192.png`,
    tag: "alert-7",
  };
  const cdp = await context.newCDPSession(page);
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on("ServiceWorker.workerRegistrationUpdated", (event) => void registrations.push(...event.registrations));
  await cdp.send("ServiceWorker.enable");
  await expect.poll(() => registrations.some((r) => r.scopeURL === `${site.url}/` && !r.isDeleted)).toBe(true);
  const registrationId = registrations.find((r) => r.scopeURL === `${site.url}/` && !r.isDeleted)!.registrationId;
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: site.url, registrationId, data: JSON.stringify(alert) });

  const shown = () =>
    page.evaluate(async () =>
      (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
        title: n.title,
        body: n.body,
        dir: n.dir,
        lang: n.lang,
        icon: n.icon,
        image: (n as Notification & { image: string }).image,
        tag: n.tag,
        data: n.data as unknown,
      })),
    );
  await expect.poll(shown).toEqual([
    { title: alert.title, body: alert.body, dir: "rtl", lang: "ar", icon: alert.icon, image: alert.image, tag: "alert-7", data: { alertId: 7, url: storyPath } },
  ]);

  // Its click: the worker's notificationclick handler, given the notification it showed. A window may
  // open only from a real click, so the site's open tab is taken to the story.
  const [worker] = context.serviceWorkers();
  await worker!.evaluate(clickFirstNotification);
  await expect(page).toHaveURL(`${site.url}${storyPath}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(story.title);
  await expect.poll(() => calls.filter((call) => call.path === "/api/push/opened")).toEqual([{ method: "POST", path: "/api/push/opened", body: { alertId: 7 } }]);
  expect(await shown()).toEqual([]);
  expect(context.pages()).toHaveLength(1);

  // A second alert for the story already open: its tab is the one, nothing else opens.
  await cdp.send("ServiceWorker.deliverPushMessage", { origin: site.url, registrationId, data: JSON.stringify({ ...alert, alertId: 8, tag: "alert-8" }) });
  await expect.poll(shown).toHaveLength(1);
  await page.evaluate(() => ((window as unknown as { sameTab: boolean }).sameTab = true));
  await worker!.evaluate(clickFirstNotification);
  await expect.poll(() => calls.filter((call) => call.path === "/api/push/opened").length).toBe(2);
  expect(calls.at(-1)).toEqual({ method: "POST", path: "/api/push/opened", body: { alertId: 8 } });
  expect(context.pages()).toHaveLength(1);
  expect(await page.evaluate(() => (window as unknown as { sameTab?: boolean }).sameTab)).toBe(true);

  // Stopped from the ticker's bell: the server forgets the endpoint.
  await hydrated(page);
  const tickerBell = page.locator('.alert-bell[data-place="ticker"]');
  await tickerBell.getByRole("button", { name: alertBellMessages.bell }).click();
  await tickerBell.getByRole("button", { name: alertBellMessages.unsubscribe }).click();
  await expect(tickerBell.getByRole("status")).toHaveText(alertBellMessages.stopped);
  await expect(tickerBell).toContainText(alertBellMessages.stateNotSubscribed);
  expect(calls.at(-1)).toEqual({ method: "DELETE", path: "/api/push/subscriptions", body: { endpoint: SUBSCRIPTION.endpoint } });
  noErrors();
  await context.close();

  // On an iPhone, Safari without the site on the home screen has no PushManager: the bell says how to add it.
  const iphone = await browser.newContext({
    baseURL: site.url,
    viewport: { width: 375, height: 740 },
    userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
  });
  await iphone.addInitScript(() => delete (window as { PushManager?: unknown }).PushManager);
  const phone = await iphone.newPage();
  await phone.goto("/breaking");
  await hydrated(phone);
  await phone.locator('.alert-bell[data-place="page"]').getByRole("button", { name: alertBellMessages.bell }).click();
  await expect(phone.getByTestId("alert-bell-ios")).toContainText(alertBellMessages.iosTitle);
  await shot(phone, "bell-iphone-375");
  await iphone.close();
});

/** Chromium's own verdict on installing the site, in a profile on disk: a test's context is incognito, where nothing installs. */
async function installabilityErrors(): Promise<unknown[]> {
  const profile = mkdtempSync(path.join(tmpdir(), "akhbar-install-"));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath(), args: CHROMIUM_ARGS, baseURL: site.url });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto("/");
    await hydrated(page);
    await serviceWorkerReady(page);
    const cdp = await context.newCDPSession(page);
    return (await cdp.send("Page.getInstallabilityErrors")).installabilityErrors;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

test("the site installs, and offline the home page and an opened story open from the cache, anything else the Arabic offline page", async ({ browser }) => {
  const context = await browser.newContext({ baseURL: site.url, viewport: { width: 375, height: 740 } });
  const page = await context.newPage();
  const noErrors = watchConsole(page);

  const manifest = (await (await page.request.get("/manifest.webmanifest")).json()) as Record<string, unknown>;
  expect(manifest).toMatchObject({ lang: "ar", dir: "rtl", display: "standalone", start_url: "/", id: "/" });
  expect(manifest.name).toMatch(/\p{Script=Arabic}/u);
  expect(await installabilityErrors()).toEqual([]);

  await page.goto("/");
  await hydrated(page);
  await serviceWorkerReady(page);

  // The latest stories are kept once the worker is active; an older one the reader opens is kept too.
  const { items } = (await (await page.request.get("/api/latest")).json()) as { items: { id: string; slug: string | null; title: string }[] };
  const latest = items[0]!;
  const latestPath = `/news/${latest.id}${latest.slug ? `/${latest.slug}` : ""}`;
  await expect.poll(() => page.evaluate(async (url) => Boolean(await caches.match(url)), `${site.url}${latestPath}`)).toBe(true);
  const older = (await (await page.request.get("/api/latest?category=local&page=1")).json()) as { items: { id: string; title: string }[] };
  const opened = older.items.find((item) => !items.some((l) => l.id === item.id))!;
  await page.goto(`/news/${opened.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(opened.title);
  await hydrated(page);
  const openedUrl = page.url();
  noErrors();

  await context.setOffline(true);
  await page.goto("/");
  await expect(page.getByTestId("offline-page")).toHaveCount(0);
  await expect(page.locator("main")).toContainText(latest.title);
  await page.goto(latestPath);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(latest.title);
  await page.goto(openedUrl);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(opened.title);

  await page.goto("/who");
  const offline = page.getByTestId("offline-page");
  await expect(offline.getByRole("heading", { level: 1 })).toHaveText(offlineMessages.title);
  await expect(offline.getByRole("link", { name: offlineMessages.home })).toHaveAttribute("href", "/");
  expect(await page.evaluate(() => [document.documentElement.dir, getComputedStyle(document.body).fontFamily])).toEqual(["rtl", expect.stringMatching(/Cairo/)]);
  await shot(page, "offline-375");
  await context.close();
});
