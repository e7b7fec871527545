/**
 * A picture of a breaking-news alert as Chromium itself shows it, for a person to look at: headless
 * Chromium draws no notifications, so this runs Chromium with a window on a virtual X display (Xvfb)
 * and grabs the whole screen with xwd. Needs Debian's xvfb, x11-apps and netpbm.
 * Usage: npm run screenshots:notification -- [out.png]
 * The alert is real: a subscription at the local push service (harness/push-service.ts), a breaking
 * story with a picture published through the API, the message that service decrypted handed to the
 * site's service worker through DevTools.
 */
import { execSync, spawn } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { chromium } from "@playwright/test";
import sharp from "sharp";
import { signedInAs } from "../harness/accounts";
import { CHROMIUM_ARGS, chromiumPath } from "../harness/chromium";
import { deliverToServiceWorker, startPushService } from "../harness/push-service";
import { startTestServer } from "../harness/test-server";
import { openDatabase } from "../app/server/db/db.server";
import { pngBytes } from "../harness/fixtures";
import { publishForm } from "../harness/articles";

const out = path.resolve(process.argv[2] ?? ".tmp/push-and-offline/notification-xvfb.png");
const DISPLAY = ":47";
const SCREEN = { width: 1280, height: 800 };

async function until<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  ms = 20_000,
): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(100);
  }
}

mkdirSync(path.dirname(out), { recursive: true });
const xvfb = spawn("Xvfb", [DISPLAY, "-screen", "0", `${SCREEN.width}x${SCREEN.height}x24`, "-nolisten", "tcp"], {
  stdio: "ignore",
});
const push = await startPushService();
const server = await startTestServer({ SCHEDULER_INTERVAL_MS: "500", TEST_LOOPBACK_PUSH: "1" });
const db = openDatabase(server.env.DATABASE_URL, 1);
try {
  await until("Xvfb", () => existsSync(`/tmp/.X11-unix/X${DISPLAY.slice(1)}`));
  const cookie = await signedInAs(db, server.site, {
    email: "desk@example.com",
    username: "مكتب العاجل",
    role: "editor",
  });
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: [
      ...CHROMIUM_ARGS,
      "--lang=ar",
      "--disable-features=Translate",
      `--window-size=480,${SCREEN.height}`,
      "--window-position=0,0",
    ],
    headless: false,
    env: { ...process.env, DISPLAY },
  });
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: { width: 375, height: 640 },
    locale: "ar-LB",
    serviceWorkers: "allow",
  });
  await context.grantPermissions(["notifications"], { origin: server.url });
  const page = await context.newPage();
  await page.goto("/breaking", { waitUntil: "networkidle" });
  await page.evaluate(() => navigator.serviceWorker.ready);

  const subscription = push.subscribe();
  const subscribed = await fetch(`${server.url}/api/push/subscriptions`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: server.url },
    body: JSON.stringify({ subscription, categories: [] }),
  });
  if (subscribed.status !== 201) throw new Error(`subscribing gave ${subscribed.status}`);
  const picture = {
    field: "images",
    name: "market-fire.png",
    bytes: await pngBytes(1200, 675, "#e76f51"),
    type: "image/png",
  };
  const form = publishForm(
    "عاجل: حريق في سوق الخضار وسط المدينة",
    { category: "breaking", content: "اندلع الحريق فجراً في سوق الخضار، وتعمل فرق الإطفاء على إخماده." },
    [picture],
  );
  const published = await fetch(`${server.url}/api/news`, {
    method: "POST",
    body: form,
    headers: { cookie, origin: server.url },
  });
  if (published.status !== 201) throw new Error(`publishing gave ${published.status}: ${await published.text()}`);
  const [message] = await until(
    "the push message",
    () => push.messages(subscription.endpoint).length > 0 && push.messages(subscription.endpoint),
  );

  await deliverToServiceWorker(page, message!.payload);
  await until("the notification", () =>
    page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length === 1),
  );
  // Chromium draws its popup in the screen's bottom corner, away from the window, once another process
  // has laid it out: the screen is taken until that corner is drawn on and stays the same twice running.
  const corner = out.replace(/\.png$/, "-popup.png");
  let previous: Buffer | undefined;
  await until("the popup drawn", async () => {
    execSync(`xwd -root -silent -display ${DISPLAY} | xwdtopnm 2>/dev/null | pnmtopng > ${JSON.stringify(out)}`);
    const pixels = await sharp(out)
      .extract({ left: SCREEN.width - 400, top: SCREEN.height - 340, width: 400, height: 340 })
      .raw()
      .toBuffer();
    const drawn = pixels.some((value) => value > 0);
    const steady = drawn && previous !== undefined && pixels.equals(previous);
    previous = pixels;
    return steady;
  });
  await sharp(out)
    .extract({ left: SCREEN.width - 400, top: SCREEN.height - 340, width: 400, height: 340 })
    .toFile(corner);
  console.log(out, corner);
  await browser.close();
} finally {
  await db.destroy();
  await server.stop();
  await push.stop();
  xvfb.kill("SIGTERM");
}
