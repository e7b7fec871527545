import type { DB } from "~/server/db/db.server";
import type { MediaStorage } from "~/server/media/storage.server";
import type { Clock } from "~/server/platform/clock.server";

/**
 * What the newsroom's writes need: where articles and their media are kept, where uploads wait until they are checked; `clock` stamps the writes;
 * `alertsPerHour`, the site's setting (read by site/, a floor above), past which an alert asks for confirmation (none: never asks).
 */
export type Newsroom = {
  db: DB;
  storage: MediaStorage;
  stagingDir: string;
  clock: Clock;
  alertsPerHour?: () => Promise<number>;
};
