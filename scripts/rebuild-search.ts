/**
 * Rebuilds the search index from every article with the current normalizer: npm run search:rebuild.
 * Needed after a change to the normalizer or the index terms; safe while the server runs (one transaction).
 */
import { config } from "../app/server/platform/config.server";
import { openDatabase } from "../app/server/db/db.server";
import { migrateToLatest } from "../app/server/data/migrate.server";
import { rebuildSearchIndex } from "../app/server/search/search-index.server";

const db = openDatabase(config().databaseUrl);
try {
  await migrateToLatest(db);
  const articles = await db.transaction().execute((trx) => rebuildSearchIndex(trx));
  console.log(`Search index rebuilt: ${articles} articles.`);
} finally {
  await db.destroy();
}
