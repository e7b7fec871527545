import { addSiteVisits } from "~/server/visits/visits.server";
import { parseSiteStats } from "./firebase-records.server";
import { warn } from "./import-report.server";
import type { Run } from "./import-run.server";
import { readImported, recordImported } from "./import-state.server";

/** The site's visit total (`visits/siteStats`): the difference from what an earlier run added, not the total again. */
export async function importSiteVisits(run: Run): Promise<void> {
  const doc = run.sources.firestore.collections.get("visits")?.get("siteStats");
  if (!doc) return;
  const parsed = parseSiteStats(doc);
  if (!parsed.ok) return warn(run.report, "site visits", "visits/siteStats", `malformed, skipped: ${parsed.problem}`);
  const before = Number((await readImported(run.db, "site-visits", ["siteStats"])).get("siteStats")?.target ?? 0);
  const change = parsed.value - before;
  const counts = run.report.counts["site visits"];
  if (change === 0) return void counts.unchanged++;
  counts[before === 0 ? "created" : "updated"]++;
  if (run.options.dryRun) return;
  await run.db.transaction().execute(async (trx) => {
    await addSiteVisits(trx, change);
    await recordImported(trx, "site-visits", "siteStats", String(parsed.value), String(parsed.value));
  });
}
