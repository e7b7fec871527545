import { BoundedCache } from "~/lib/bounded-cache";

/** Far more than the lists and settings reader pages share: a bound, not a size they reach. */
const MAX_ENTRIES = 200;

/**
 * Reads every reader page repeats (the breaking ticker, the sidebars, picks, the site's settings),
 * kept until the outbox follower hears of any change, or for the age a reader gives for what changes
 * without an outbox event (visit counts). Readers asking together share one read. See docs/decisions/019.
 */
export type ReadCache = BoundedCache<string, Promise<unknown>>;

export function createReadCache(): ReadCache {
  return new BoundedCache({ maxEntries: MAX_ENTRIES });
}
