/**
 * A request a page repeats to see what changed (the latest news, the breaking list). Their public
 * answers allow `stale-while-revalidate`, so a plain fetch would be answered from the browser's cache
 * with the last poll's list and send a second request behind it: `no-cache` asks the server once, fresh.
 */
export function poll(path: string): Promise<Response> {
  return fetch(path, { cache: "no-cache" });
}
