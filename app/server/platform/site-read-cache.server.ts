import { ReadCache } from "./read-cache.server";

/** The site's lists shared by every reader page; the outbox follower empties it on every change. */
export const readCache = new ReadCache();
