/**
 * Registers the service worker (app/service-worker/) that keeps pages for reading offline and shows
 * breaking-news alerts. The islands entry runs after the page has loaded, so this never competes with it.
 */
export function registerServiceWorker(): void {
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
}
