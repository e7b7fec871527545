import type { Migration } from "kysely";
import * as m001 from "./001-initial";
import * as m002 from "./002-search-index";
import * as m003 from "./003-news-submission-id";
import * as m004limits from "./004-limits-attempts-and-visits";

/** Every migration in order; a new one is added here with the next number. */
export const migrations: Record<string, Migration> = {
  "001-initial": m001,
  "002-search-index": m002,
  "003-news-submission-id": m003,
  "004-limits-attempts-and-visits": m004limits,
};
