import type { Config } from "./config.server";
import { createAuth } from "./auth-instance.server";
import { openDatabase } from "./db/db.server";
import { migrateToLatest } from "./db/migrate.server";
import { isEmpty, seedDemoContent } from "./demo/seed-demo.server";
import { logger } from "./logger.server";

/** Everything that must be true before the server listens: schema up to date, demo content when wanted. */
export async function prepareData(cfg: Config): Promise<void> {
  const db = openDatabase(cfg.databaseUrl);
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0) logger.info({ applied }, "migrations applied");
    if (cfg.demoContent && (await isEmpty(db))) {
      const demo = await seedDemoContent(db, createAuth(db, cfg), cfg.mediaDir);
      console.log(
        [
          "",
          `Demo content: ${demo.articles} articles and a demo admin account were created.`,
          `  email:    ${demo.email}`,
          `  password: ${demo.password}`,
          "This password is shown only once. Start with DEMO_CONTENT=off for a real site.",
          "",
        ].join("\n"),
      );
    }
  } finally {
    await db.destroy();
  }
}
