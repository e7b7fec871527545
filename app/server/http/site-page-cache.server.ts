import { config } from "~/server/platform/config.server";
import { PageCache } from "./page-cache.server";

/** The site's one page cache: the HTTP layer serves from it, the outbox follower empties it on every change. */
export const pageCache = new PageCache(config().pageCacheSeconds * 1000);
