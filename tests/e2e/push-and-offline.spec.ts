import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "@playwright/test";
import { CHROMIUM_ARGS, chromiumPath } from "../../harness/chromium";
import { signedInAs } from "../../harness/accounts";
import {
  deliverToServiceWorker,
  startPushService,
  type PushService,
  type Subscription,
} from "../../harness/push-service";
import { startRewritingProxy } from "../../harness/rewriting-proxy";
import { startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import { categoryLabel, type Category } from "../../app/lib/categories";
import { offlineMessages } from "../../app/lib/messages";
import { newsroomMessages, pushMessages } from "../../app/lib/newsroom-messages";
import { alertBellMessages } from "../../app/lib/alert-bell-messages";
import { articlePath } from "../../app/lib/news";
import { MAX_KEPT_STORIES } from "../../app/lib/offline-cache-rules";
import type { PushAlert } from "../../app/lib/push-notification";
import { openDatabase } from "../../app/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { pngBytes } from "../../harness/fixtures";
import { DEMO_SITES, E2E_SERVERS, FILES_DIR, SPEC_PORT_BASE } from "./servers";
import { contextWithSession, fillBody, hydrated, watchConsole } from "./support";
import { expect, test } from "./test";

/**
 * Alerts and reading offline, the browser's side (decision 038) against the real server (decision 037). Chromium here
 * reaches no push service, so an init script gives PushManager a subscription at the push service this
 * spec runs (harness/push-service.ts), with keys that service decrypts with. The rest is real: the bell
 * talks to the server, an editor publishes on the other instance, and the message the push service
 * decrypted reaches the real service worker through DevTools; its click is the worker's own handler.
 */
const SHOTS = path.resolve(".tmp/push-and-offline");
const ENGINES: Engine[] = process.env.E2E_POSTGRES === "1" ? ["sqlite", "postgres"] : ["sqlite"];
const PHONE = { width: 375, height: 740 };
const STORY_TEXT = "اندلع الحريق فجراً في سوق الخضار، وتعمل فرق الإطفاء على إخماده.";
const ar = (n: number) => n.toLocaleString("ar-LB");

test.use({ serviceWorkers: "allow" });

type Spied = { permissionAsks: number; serverKey: string };

/** PushManager without a push service: subscribe keeps the spec's subscription (in localStorage, across pages). */
function fakePushManager(subscription: Subscription) {
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
  const spec = window as unknown as Spied;
  spec.permissionAsks = 0;
  PushManager.prototype.subscribe = async function (options?: PushSubscriptionOptionsInit) {
    const key = new Uint8Array(options!.applicationServerKey as ArrayBuffer);
    spec.serverKey = btoa(String.fromCharCode(...key))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, "");
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
    if (!navigator.serviceWorker.controller)
      await new Promise((resolve) =>
        navigator.serviceWorker.addEventListener("controllerchange", resolve, { once: true }),
      );
  });
}

/** The notifications the page's service worker shows now. */
function shown(page: Page) {
  return page.evaluate(async () =>
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
}

/** Run in the service worker: its notificationclick handler, given the first notification it shows. */
async function clickFirstNotification() {
  const scope = self as unknown as {
    registration: ServiceWorkerRegistration;
    NotificationEvent: new (type: string, init: { notification: Notification }) => Event;
  };
  const [notification] = await scope.registration.getNotifications();
  self.dispatchEvent(new scope.NotificationEvent("notificationclick", { notification: notification! }));
}

const shot = (page: Page, name: string) => page.screenshot({ path: path.join(SHOTS, `${name}.png`) });

/** A reader's phone on /breaking of `server`, whose PushManager subscribes at `subscription`. */
async function readerOn(browser: Browser, server: TestServer, subscription: Subscription) {
  const context = await browser.newContext({ baseURL: server.url, viewport: PHONE });
  await context.addInitScript(fakePushManager, subscription);
  const page = await context.newPage();
  const noErrors = watchConsole(page);
  await page.goto("/breaking");
  await hydrated(page);
  const bell = page.locator('.alert-bell[data-place="page"]');
  return {
    context,
    page,
    noErrors,
    subscription,
    bell,
    panel: bell.getByRole("region", { name: alertBellMessages.panelTitle }),
  };
}

for (const [index, engine] of ENGINES.entries()) {
  test.describe(`from the newsroom to a reader's phone, two instances on one ${engine} database`, () => {
    const PICTURE = path.join(FILES_DIR, "market-fire.png");
    let site: TestSite;
    let a: TestServer;
    let b: TestServer;
    let push: PushService;
    let editorCookie = "";

    test.beforeAll(async () => {
      test.setTimeout(120_000);
      mkdirSync(SHOTS, { recursive: true });
      writeFileSync(PICTURE, await pngBytes(1200, 675, "#e76f51"));
      push = await startPushService({ port: SPEC_PORT_BASE + 4 + index });
      site = await startTestSite(2, { SCHEDULER_INTERVAL_MS: "500", TEST_LOOPBACK_PUSH: "1" }, engine);
      [a, b] = site.servers as [TestServer, TestServer];
      const db = openDatabase(site.database.url, 1);
      try {
        editorCookie = await signedInAs(db, a.site, {
          email: "desk@example.com",
          username: "مكتب العاجل",
          role: "editor",
        });
      } finally {
        await db.destroy();
      }
    });
    test.afterAll(async () => {
      await site?.stop();
      await push?.stop();
    });

    test("a reader subscribes through the bell on A, a breaking story published on B reaches each subscriber once, and the worker's notification opens it, counted", async ({
      browser,
    }) => {
      test.setTimeout(120_000);
      const editor = await (await contextWithSession(browser, b.url, editorCookie)).newPage();
      editor.on("dialog", (dialog) => void dialog.accept());
      /** What B's /dashboard/alerts shows: subscribers by category, and the counts of the alert for `title`. */
      const subscribers = async () => {
        await editor.goto(`${b.url}/dashboard/alerts`);
        return Object.fromEntries(
          await editor
            .getByTestId("subscribers")
            .locator("dd")
            .evaluateAll((dds) => dds.map((dd) => [(dd as HTMLElement).dataset.category ?? "total", dd.textContent])),
        );
      };
      const alertCounts = async (title: string) => {
        await editor.goto(`${b.url}/dashboard/alerts`);
        const row = editor.getByTestId("alert-row").filter({ hasText: title });
        return Object.fromEntries(
          await row
            .locator("[data-count]")
            .evaluateAll((dds) => dds.map((dd) => [(dd as HTMLElement).dataset.count, dd.textContent])),
        );
      };
      const counted = (sent: number, opened = 0) => ({
        sent: ar(sent),
        delivered: ar(sent),
        failed: ar(0),
        removed: ar(0),
        opened: ar(opened),
      });
      const publish = async (title: string, category: Category, extra: "picture" | "sendAlert") => {
        await editor.goto(`${b.url}/dashboard`);
        await hydrated(editor);
        await editor.getByLabel(newsroomMessages.fieldTitle, { exact: true }).fill(title);
        await fillBody(editor, STORY_TEXT);
        await editor.getByLabel(newsroomMessages.fieldCategory).selectOption(category);
        if (extra === "picture") await editor.locator("#images").setInputFiles(PICTURE);
        else await editor.getByLabel(pushMessages.sendAlert, { exact: true }).check();
        await editor.getByLabel(new RegExp(newsroomMessages.statusPublishNow)).check();
        await editor.getByRole("button", { name: newsroomMessages.publishSubmit }).click();
        await expect(editor.getByRole("status")).toContainText(newsroomMessages.published);
      };

      // Reader one: the browser is asked for permission only by the bell's button; breaking news only.
      const one = await readerOn(browser, a, push.subscribe());
      expect(
        await one.page.evaluate(() => [Notification.permission, (window as unknown as Spied).permissionAsks]),
      ).toEqual(["default", 0]);
      await shot(one.page, "bell-closed-375");
      await one.bell.getByRole("button", { name: alertBellMessages.bell }).click();
      await expect(one.panel).toContainText(alertBellMessages.stateNotSubscribed);
      await shot(one.page, "bell-open-375");
      await one.context.grantPermissions(["notifications"], { origin: a.url });
      await one.panel.getByRole("button", { name: alertBellMessages.subscribe }).click();
      await expect(one.panel.getByRole("status")).toHaveText(alertBellMessages.saved);
      await expect(one.panel).toContainText(alertBellMessages.stateSubscribed);
      const { publicKey } = (await (await fetch(`${a.url}/api/push/key`)).json()) as { publicKey: string };
      expect(await one.page.evaluate(() => ({ ...(window as unknown as Spied) }))).toMatchObject({
        permissionAsks: 1,
        serverKey: publicKey,
      });
      expect(await subscribers()).toEqual({ total: ar(1) });
      await one.panel.getByRole("button", { name: alertBellMessages.close }).click();
      await one.page.getByTestId("mobile-menu-toggle").click();
      await one.page
        .locator('.alert-bell[data-place="menu"]')
        .getByRole("button", { name: alertBellMessages.bell })
        .click();
      await expect(one.page.locator('.alert-bell[data-place="menu"]')).toContainText(alertBellMessages.stateSubscribed);
      await shot(one.page, "bell-menu-375");
      await one.page.getByTestId("mobile-menu-toggle").click();
      await one.page.setViewportSize({ width: 1280, height: 800 });
      await one.bell.getByRole("button", { name: alertBellMessages.bell }).click();
      // Opened again, the panel shows where the reader stands, not the note of the last choice.
      await expect(one.panel).toContainText(alertBellMessages.stateSubscribed);
      await expect(one.panel.getByRole("status")).toHaveText("");
      await shot(one.page, "bell-open-1280");
      await one.panel.getByRole("button", { name: alertBellMessages.close }).click();
      await one.page.setViewportSize(PHONE);

      // Reader two: breaking news and a category, then another category, changed from the same place.
      const two = await readerOn(browser, a, push.subscribe());
      await two.context.grantPermissions(["notifications"], { origin: a.url });
      await two.bell.getByRole("button", { name: alertBellMessages.bell }).click();
      await two.panel.getByLabel(alertBellMessages.withCategories).check();
      await two.panel.getByRole("button", { name: alertBellMessages.subscribe }).click();
      await expect(two.panel.getByRole("status")).toHaveText(alertBellMessages.chooseCategory);
      await two.panel.getByLabel(categoryLabel("local")).check();
      await two.panel.getByRole("button", { name: alertBellMessages.subscribe }).click();
      await expect(two.panel.getByRole("status")).toHaveText(alertBellMessages.saved);
      expect(await subscribers()).toEqual({ total: ar(2), local: ar(1) });
      await two.page.reload();
      await hydrated(two.page);
      await two.bell.getByRole("button", { name: alertBellMessages.bell }).click();
      await expect(two.panel.getByLabel(categoryLabel("local"))).toBeChecked();
      await two.panel.getByLabel(categoryLabel("local")).uncheck();
      await two.panel.getByLabel(categoryLabel("sports")).check();
      await two.panel.getByRole("button", { name: alertBellMessages.save }).click();
      await expect(two.panel.getByRole("status")).toHaveText(alertBellMessages.saved);
      expect(await subscribers()).toEqual({ total: ar(2), sports: ar(1) });

      // An editor publishes a breaking story with a picture on B: one decryptable message per subscription.
      const title = `عاجل: حريق في سوق المدينة (${engine})`;
      await publish(title, "breaking", "picture");
      await expect.poll(() => alertCounts(title), { timeout: 10_000 }).toEqual(counted(2));
      expect(push.rejected()).toEqual([]);
      // Read on A, whose page cache learns of B's publication through the outbox.
      let story = { id: "", slug: null as string | null, title: "", image: null as string | null };
      const listedOnA = async () =>
        ((await (await fetch(`${a.url}/api/latest`)).json()) as { items: (typeof story)[] }).items.find(
          (item) => item.title === title,
        );
      await expect.poll(async () => (story = (await listedOnA()) ?? story).image).toMatch(/^\/media\//);
      const sentBy = expect.stringMatching(new RegExp(`^(${a.url}|${b.url})/`));
      for (const reader of [one, two]) {
        const received = push.messages(reader.subscription.endpoint);
        expect(received).toHaveLength(1);
        expect(received[0]).toMatchObject({ urgency: "high", topic: "akhbar-breaking", vapidKey: publicKey });
        expect(received[0]!.payload).toEqual({
          alertId: expect.any(Number),
          title,
          body: STORY_TEXT,
          url: articlePath(story.id, story.slug),
          image: sentBy,
          icon: sentBy,
          tag: `news-${story.id}`,
          open: expect.any(String),
        });
      }
      const alert = push.messages(one.subscription.endpoint)[0]!.payload as PushAlert;
      expect([new URL(alert.image!).pathname, new URL(alert.icon).pathname]).toEqual([story.image, "/icon-192.png"]);

      // Reader one's worker shows it, in Arabic; its click takes the open tab to the story (no window may
      // open without a real click) and is counted.
      await serviceWorkerReady(one.page);
      await deliverToServiceWorker(one.page, alert);
      await expect
        .poll(() => shown(one.page))
        .toEqual([
          {
            title,
            body: STORY_TEXT,
            dir: "rtl",
            lang: "ar",
            icon: alert.icon,
            image: alert.image,
            tag: alert.tag,
            data: { alertId: alert.alertId, url: alert.url, open: alert.open },
          },
        ]);
      const [worker] = one.context.serviceWorkers();
      await worker!.evaluate(clickFirstNotification);
      // Opened with the alert's tag, so the view counts as coming from a notification.
      await expect(one.page).toHaveURL(`${a.url}${alert.url}?utm_source=push`);
      await expect(one.page.getByRole("heading", { level: 1 })).toHaveText(title);
      expect(await shown(one.page)).toEqual([]);
      expect(one.context.pages()).toHaveLength(1);
      await expect.poll(() => alertCounts(title)).toEqual(counted(2, 1));

      // A sports story the editor sends with the box ticked reaches reader two only. Reader two is already
      // reading it: the click focuses that tab, and nothing else opens.
      const sportsTitle = `فوز فريق المدينة في النهائي (${engine})`;
      await publish(sportsTitle, "sports", "sendAlert");
      await expect.poll(() => alertCounts(sportsTitle), { timeout: 10_000 }).toEqual(counted(1));
      expect(push.messages(one.subscription.endpoint)).toHaveLength(1);
      const toTwo = push.messages(two.subscription.endpoint).map((message) => message.payload as PushAlert);
      expect(toTwo.map((payload) => payload.title)).toEqual([title, sportsTitle]);
      await two.page.goto(toTwo[1]!.url);
      await serviceWorkerReady(two.page);
      await two.page.evaluate(() => ((window as unknown as { sameTab: boolean }).sameTab = true));
      await deliverToServiceWorker(two.page, toTwo[1]);
      await expect
        .poll(async () => (await shown(two.page)).map((n) => [n.title, n.dir, n.lang, n.tag]))
        .toEqual([[sportsTitle, "rtl", "ar", toTwo[1]!.tag]]);
      await two.context.serviceWorkers()[0]!.evaluate(clickFirstNotification);
      await expect.poll(() => alertCounts(sportsTitle)).toEqual(counted(1, 1));
      expect(two.context.pages()).toHaveLength(1);
      expect(await two.page.evaluate(() => (window as unknown as { sameTab?: boolean }).sameTab)).toBe(true);

      // Reader one stops from the ticker's bell: the server forgets the subscription.
      await hydrated(one.page);
      const tickerBell = one.page.locator('.alert-bell[data-place="ticker"]');
      await tickerBell.getByRole("button", { name: alertBellMessages.bell }).click();
      await tickerBell.getByRole("button", { name: alertBellMessages.unsubscribe }).click();
      await expect(tickerBell.getByRole("status")).toHaveText(alertBellMessages.stopped);
      await expect(tickerBell).toContainText(alertBellMessages.stateNotSubscribed);
      expect(await subscribers()).toEqual({ total: ar(1), sports: ar(1) });
      one.noErrors();
      two.noErrors();
      await Promise.all([one.context.close(), two.context.close(), editor.context().close()]);
    });
  });
}

test("on an iPhone, where Safari without the site on the home screen has no PushManager, the bell says how to add it", async ({
  browser,
}) => {
  mkdirSync(SHOTS, { recursive: true });
  const iphone = await browser.newContext({
    baseURL: E2E_SERVERS.demo.url,
    viewport: PHONE,
    userAgent:
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
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

/** A page's messages to its service worker, counted (ServiceWorker.postMessage, wrapped before the page runs). */
function countMessagesToWorker() {
  const post = ServiceWorker.prototype.postMessage;
  (window as unknown as { toWorker: number }).toWorker = 0;
  ServiceWorker.prototype.postMessage = function (
    this: ServiceWorker,
    ...args: Parameters<ServiceWorker["postMessage"]>
  ) {
    (window as unknown as { toWorker: number }).toWorker += 1;
    return post.apply(this, args);
  } as ServiceWorker["postMessage"];
}

/** A phone's Chrome on mobile data: Chromium on Linux has no `navigator.connection.type` (DevTools' connectionType does not give it one), Android's says "cellular". */
function onCellular() {
  const { NetworkInformation } = window as unknown as { NetworkInformation: { prototype: object } };
  Object.defineProperty(NetworkInformation.prototype, "type", { get: () => "cellular", configurable: true });
}

for (const [connection, emulate] of [
  [
    "Save-Data",
    (page: Page) =>
      page
        .context()
        .newCDPSession(page)
        .then((cdp) => cdp.send("Emulation.setDataSaverOverride", { dataSaverEnabled: true })),
  ],
  ["a cellular connection", (page: Page) => page.context().addInitScript(onCellular)],
] as const) {
  test(`with ${connection}, the worker keeps nothing ahead of the reader; the page they open is kept as ever`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: E2E_SERVERS.demo.url, viewport: PHONE });
    await context.addInitScript(countMessagesToWorker);
    const page = await context.newPage();
    await emulate(page);
    const byWorker: string[] = [];
    context.on(
      "request",
      (request) => void (request.serviceWorker() && byWorker.push(new URL(request.url()).pathname)),
    );
    await page.goto("/");
    await hydrated(page);
    await serviceWorkerReady(page);
    const said = await page.evaluate(() => {
      const { saveData, type } = (navigator as Navigator & { connection: { saveData: boolean; type?: string } })
        .connection;
      return { saveData, type };
    });
    expect(said).toMatchObject(connection === "Save-Data" ? { saveData: true } : { type: "cellular" });
    // The page asks once its idle moment has come and the worker is ready; by the time a later wait on the same ready resolves, it would have.
    await page.evaluate(() => navigator.serviceWorker.ready);
    expect(await page.evaluate(() => (window as unknown as { toWorker: number }).toWorker)).toBe(0);
    expect(byWorker.filter((path) => path.startsWith("/news/"))).toEqual([]);

    const story = await page.locator('main a[href^="/news/"]').first().getAttribute("href");
    await page.goto(story!);
    await hydrated(page);
    await expect.poll(() => page.evaluate(async () => Boolean(await caches.match(location.href)))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { toWorker: number }).toWorker)).toBe(0);
    // The worker fetched no story but the one opened, which it fetched for the page.
    expect(byWorker.filter((path) => path.startsWith("/news/") && path !== new URL(page.url()).pathname)).toEqual([]);
    await context.close();
  });
}

test("on an ordinary connection, the page asks the worker once, when idle, to keep its first stories", async ({
  browser,
}) => {
  const context = await browser.newContext({ baseURL: E2E_SERVERS.demo.url, viewport: PHONE });
  await context.addInitScript(countMessagesToWorker);
  const page = await context.newPage();
  await page.goto("/");
  await hydrated(page);
  await serviceWorkerReady(page);
  await expect.poll(() => page.evaluate(() => (window as unknown as { toWorker: number }).toWorker)).toBe(1);
  await context.close();
});

/** Chromium's own verdict on installing the site, in a profile on disk: a test's context is incognito, where nothing installs. */
async function installabilityErrors(baseURL: string): Promise<unknown[]> {
  const profile = mkdtempSync(path.join(tmpdir(), "akhbar-install-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: chromiumPath(),
    args: CHROMIUM_ARGS,
    baseURL,
  });
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

/** The worker's shell caches, one per version of the site: `akhbar-shell-<version>`. */
const shellCaches = (page: Page) =>
  page.evaluate(async () => (await caches.keys()).filter((name) => name.startsWith("akhbar-shell-")).sort());

for (const site of DEMO_SITES) {
  test.describe(`reading offline on ${site.engine}`, () => {
    test.use({ baseURL: site.url, viewport: PHONE });

    test("the site installs; the worker keeps the first stories the page leads to, no more, with small pictures; offline the home page, a kept story and an opened story open from the cache, anything else the Arabic offline page", async ({
      page,
      context,
    }) => {
      mkdirSync(SHOTS, { recursive: true });
      const noErrors = watchConsole(page);
      const manifest = (await (await page.request.get("/manifest.webmanifest")).json()) as Record<string, unknown>;
      expect(manifest).toMatchObject({ lang: "ar", dir: "rtl", display: "standalone", start_url: "/", id: "/" });
      expect(manifest.name).toMatch(/\p{Script=Arabic}/u);
      expect(await installabilityErrors(site.url)).toEqual([]);

      const byWorker: string[] = [];
      context.on(
        "request",
        (request) => void (request.serviceWorker() && byWorker.push(new URL(request.url()).pathname)),
      );
      await page.goto("/");
      await hydrated(page);
      await serviceWorkerReady(page);

      // Once the page is idle, the worker keeps the first stories it links to: their pages, then each picture at its smallest size.
      const leads = await page.evaluate(
        (most) =>
          [
            ...new Set(
              [...document.querySelectorAll<HTMLAnchorElement>('main a[href^="/news/"]')].map(
                (a) => new URL(a.href).pathname,
              ),
            ),
          ].slice(0, most),
        MAX_KEPT_STORIES,
      );
      expect(leads).toHaveLength(MAX_KEPT_STORIES);
      const pictures = await page.evaluate((paths) => {
        const links = [...document.querySelectorAll<HTMLAnchorElement>('main a[href^="/news/"]')];
        return paths.map((path) => {
          const link = links.find((a) => new URL(a.href).pathname === path)!;
          const img =
            link.querySelector("img") ?? link.closest('article, [aria-roledescription="slide"]')?.querySelector("img");
          return new URL(img?.src ?? "/", location.href).pathname.replace(/-\d+w\.webp$/, "-400w.webp");
        });
      }, leads);
      expect(
        pictures.every((picture) => /^\/media\/.+-400w\.webp$/.test(picture)),
        pictures.join(" "),
      ).toBe(true);
      const cached = (paths: string[]) =>
        page.evaluate(
          async (urls) => Promise.all(urls.map(async (url) => Boolean(await caches.match(url)))),
          paths.map((p) => `${site.url}${p}`),
        );
      await expect.poll(() => cached([...leads, ...pictures])).toEqual([...leads, ...pictures].map(() => true));
      expect(byWorker.filter((path) => path.startsWith("/news/")).sort()).toEqual([...leads].sort());

      // A story the reader opens is kept too.
      const older = (await (await page.request.get("/api/latest?category=local&page=1")).json()) as {
        items: { id: string; title: string }[];
      };
      const opened = older.items.find((item) => !leads.some((lead) => lead.startsWith(`/news/${item.id}`)))!;
      await page.goto(`/news/${opened.id}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(opened.title);
      await hydrated(page);
      const openedUrl = page.url();
      const keptTitle = /<h1[^>]*>([^<]*)<\/h1>/.exec(await (await page.request.get(leads[0]!)).text())![1]!;
      noErrors();

      await page.context().setOffline(true);
      await page.goto("/");
      await expect(page.getByTestId("offline-page")).toHaveCount(0);
      await expect(page.locator("main a[href^='/news/']").first()).toHaveAttribute("href", decodeURI(leads[0]!));
      // On a wide screen its picture is asked for at a larger size: the small one kept stands in.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(leads[0]!);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(keptTitle);
      const cover = page.getByTestId("article-images").locator("img").first();
      await expect
        .poll(() =>
          cover.evaluate((img: HTMLImageElement) => [
            img.complete && img.naturalWidth > 0,
            /-(800|1200)w\.webp$/.test(img.currentSrc),
          ]),
        )
        .toEqual([true, true]);
      await page.setViewportSize(PHONE);
      await page.goto(openedUrl);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(opened.title);

      await page.goto("/who");
      const offline = page.getByTestId("offline-page");
      await expect(offline.getByRole("heading", { level: 1 })).toHaveText(offlineMessages.title);
      await expect(offline.getByRole("link", { name: offlineMessages.home })).toHaveAttribute("href", "/");
      expect(
        await page.evaluate(() => [document.documentElement.dir, getComputedStyle(document.body).fontFamily]),
      ).toEqual(["rtl", expect.stringMatching(/Cairo/)]);
      await shot(page, `offline-${site.engine}-375`);
    });

    test("a new version of the worker waits while a tab runs the old one, which keeps working, and takes over once that tab is gone", async ({
      page,
      context,
    }) => {
      // The browser checks /sw.js for an update outside any page, where neither routes nor DevTools reach:
      // the site is read through a proxy that serves the next deploy's worker when told to.
      const proxy = await startRewritingProxy(site.url);
      await page.goto(`${proxy.url}/`);
      await hydrated(page);
      await serviceWorkerReady(page);
      const [oldShell] = await shellCaches(page);
      const oldVersion = oldShell!.slice("akhbar-shell-".length);

      // The deploy: the same worker with a shell of another version.
      proxy.rewrite("/sw.js", (script) => script.replaceAll(oldVersion, "nextdeploy01"));
      const workerState = () => (self as unknown as { serviceWorker: ServiceWorker }).serviceWorker.state;
      const newWorker = context.waitForEvent("serviceworker", {
        predicate: async (worker) => (await worker.evaluate(workerState)) !== "activated",
      });
      await page.evaluate(async () => {
        await (await navigator.serviceWorker.getRegistration())!.update();
      });
      const waitingState = () =>
        page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.waiting?.state ?? null);
      await expect.poll(waitingState).toBe("installed");
      expect(await shellCaches(page)).toEqual([oldShell, "akhbar-shell-nextdeploy01"].sort());

      // The open tab stays with the old version: pages open, and offline it still gives the offline page.
      const { items } = (await (await page.request.get(`${proxy.url}/api/latest`)).json()) as {
        items: { id: string; slug: string | null; title: string }[];
      };
      await page.goto(`${proxy.url}${articlePath(items[0]!.id, items[0]!.slug)}`);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(items[0]!.title);
      await context.setOffline(true);
      await page.goto(`${proxy.url}/who`);
      await expect(page.getByTestId("offline-page").getByRole("heading", { level: 1 })).toHaveText(
        offlineMessages.title,
      );
      await context.setOffline(false);
      expect(await waitingState()).toBe("installed");

      // The tab closed, the new version activates: the old shell goes, and a new tab runs the new one.
      await page.close();
      const next = await newWorker;
      await expect.poll(() => next.evaluate(workerState)).toBe("activated");
      const fresh = await context.newPage();
      await fresh.goto(`${proxy.url}/`);
      await serviceWorkerReady(fresh);
      expect(await shellCaches(fresh)).toEqual(["akhbar-shell-nextdeploy01"]);
      await expect(fresh.locator("main")).toContainText(items[0]!.title);
      await proxy.stop();
    });
  });
}
