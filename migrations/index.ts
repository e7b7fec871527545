import type { Kysely, Migration } from "kysely";
import type { Engine } from "./engine";
import * as m001 from "./001-initial";
import * as m002 from "./002-search-index";
import * as m003 from "./003-news-submission-id";
import * as m004 from "./004-limits-attempts-and-visits";
import * as m005 from "./005-search-postgres";
import * as m006 from "./006-events-outbox";
import * as m007 from "./007-review-notes";
import * as m008 from "./008-publish-times";
import * as m009 from "./009-revisions-and-trash";
import * as m010 from "./010-news-byline";
import * as m011 from "./011-news-body";
import * as m012 from "./012-image-details";
import * as m013 from "./013-site-settings";
import * as m015 from "./015-account-disabled";
import * as m017 from "./017-firebase-import";
import * as m018 from "./018-empty-media-urls";
import * as m019 from "./019-front-page-placements";
import * as m020 from "./020-topics";
import * as m021 from "./021-story-fields";
import * as m022 from "./022-author-profiles";
import * as m023 from "./023-news-version";
import * as m024 from "./024-media-library";
import * as m025 from "./025-web-push";
import * as m026 from "./026-reader-analytics";
import * as m027 from "./027-live-coverage";
import * as m029 from "./029-live-update-submission-id";
import * as m030 from "./030-push-claim-leases";
import * as m031 from "./031-push-opens";
import * as m032 from "./032-story-posters-and-removed-media";
import * as m033 from "./033-topic-descriptions-and-review-mails";
import * as m034 from "./034-author-list-index";
import * as m035 from "./035-update-alert-keys";
import * as m036 from "./036-newsletter";

type EngineMigration = {
  up: (db: Kysely<unknown>, engine: Engine) => Promise<void>;
  down: (db: Kysely<unknown>, engine: Engine) => Promise<void>;
};

/**
 * Every migration in order; a new one is added here with the next number. The same names run on both
 * engines; a migration that concerns one engine only does nothing on the other.
 * No 014 or 016 was ever written (parallel branches skipped them); sites record applied names, so none is renumbered.
 */
const migrations: Record<string, EngineMigration> = {
  "001-initial": m001,
  "002-search-index": m002,
  "003-news-submission-id": m003,
  "004-limits-attempts-and-visits": m004,
  "005-search-postgres": m005,
  "006-events-outbox": m006,
  "007-review-notes": m007,
  "008-publish-times": m008,
  "009-revisions-and-trash": m009,
  "010-news-byline": m010,
  "011-news-body": m011,
  "012-image-details": m012,
  "013-site-settings": m013,
  "015-account-disabled": m015,
  "017-firebase-import": m017,
  "018-empty-media-urls": m018,
  "019-front-page-placements": m019,
  "020-topics": m020,
  "021-story-fields": m021,
  "022-author-profiles": m022,
  "023-news-version": m023,
  "024-media-library": m024,
  "025-web-push": m025,
  "026-reader-analytics": m026,
  "027-live-coverage": m027,
  "029-live-update-submission-id": m029,
  "030-push-claim-leases": m030,
  "031-push-opens": m031,
  "032-story-posters-and-removed-media": m032,
  "033-topic-descriptions-and-review-mails": m033,
  "034-author-list-index": m034,
  "035-update-alert-keys": m035,
  "036-newsletter": m036,
};

/** The migrations as Kysely's Migrator runs them on `engine`. */
export function migrationsFor(engine: Engine): Record<string, Migration> {
  return Object.fromEntries(
    Object.entries(migrations).map(([name, migration]) => [
      name,
      {
        up: (db: Kysely<unknown>) => migration.up(db, engine),
        down: (db: Kysely<unknown>) => migration.down(db, engine),
      },
    ]),
  );
}
