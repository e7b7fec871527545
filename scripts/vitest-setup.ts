import { randomBytes } from "node:crypto";
import { dropReusedDatabases, TEST_RUN_VARIABLE } from "../harness/postgres";
import { ensureBuild } from "./ensure-build";

/**
 * Vitest's global set-up: the build the test servers run, made if it is missing or older than a source; and a
 * name for this run, under which its workers reuse their PostgreSQL databases, dropped when the run ends.
 */
export default function setup(): () => Promise<void> {
  ensureBuild();
  const run = randomBytes(4).toString("hex");
  process.env[TEST_RUN_VARIABLE] = run;
  return async () => {
    try {
      await dropReusedDatabases(run);
    } catch (error) {
      // No PostgreSQL server here: the run made no database on it.
      if ((error as NodeJS.ErrnoException).code !== "ECONNREFUSED") throw error;
    }
  };
}
