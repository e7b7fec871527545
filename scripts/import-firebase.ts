/**
 * Moves a site over from its original Firebase project (docs/import-from-firebase.md):
 *   npm run import:firebase -- --firestore <export.json> [--auth <users.json> --hash-config <file>] [--storage <folder>] [--dry-run]
 * Safe to repeat; --dry-run writes nothing and prints what it would do.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { parseArgs } from "node:util";
import { ConfigurationError, config } from "../app/server/platform/config.server";
import { openDatabase } from "../app/server/db/db.server";
import { migrateToLatest, pendingMigrations } from "../app/server/data/migrate.server";
import { mediaStorageFor } from "../app/server/media/media-storage.server";
import { parseAuthExport, parseHashConfig } from "../app/server/firebase-import/auth-export.server";
import { MalformedExportError, parseFirestoreExport } from "../app/server/firebase-import/firestore-export.server";
import { importFirebase } from "../app/server/firebase-import/import-firebase.server";
import { REPORT_KINDS, type ImportReport } from "../app/server/firebase-import/import-report.server";
import type { ImportSources } from "../app/server/firebase-import/import-run.server";

const USAGE = `Usage:
  npm run import:firebase -- --firestore <export.json> [--auth <users.json> --hash-config <file>] [--storage <folder>] [--dry-run]

  --firestore    Firestore export in JSON (firestore-export-import or node-firestore-import-export layout)
  --auth         Auth export: firebase auth:export users.json --format=json
  --hash-config  the project's password hash parameters, as the Firebase console shows them
  --storage      a local copy of the Storage bucket: gsutil -m cp -r gs://<bucket> <folder>
  --dry-run      change nothing; print what would be done`;

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function readText(file: string, what: string): string {
  if (!existsSync(file) || !statSync(file).isFile()) fail(`${what} not found: ${file}`);
  return readFileSync(file, "utf8");
}

let args;
try {
  args = parseArgs({
    options: {
      firestore: { type: "string" },
      auth: { type: "string" },
      "hash-config": { type: "string" },
      storage: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      help: { type: "boolean", default: false },
    },
  }).values;
} catch (error) {
  fail(`${(error as Error).message}\n\n${USAGE}`);
}
if (args.help) {
  console.log(USAGE);
  process.exit(0);
}
if (!args.firestore) fail(`--firestore is required.\n\n${USAGE}`);
if (args["hash-config"] && !args.auth) fail(`--hash-config goes with --auth.\n\n${USAGE}`);
if (args.storage && !(existsSync(args.storage) && statSync(args.storage).isDirectory()))
  fail(`The Storage folder is not a folder: ${args.storage}`);

// Every file is read and checked before the database is opened: a malformed one stops here.
let sources: ImportSources;
try {
  sources = {
    firestore: parseFirestoreExport(readText(args.firestore, "The Firestore export")),
    authUsers: args.auth ? parseAuthExport(readText(args.auth, "The Auth export")) : null,
    hashConfig: args["hash-config"] ? parseHashConfig(readText(args["hash-config"], "The hash config")) : null,
    storageDir: args.storage ?? null,
  };
} catch (error) {
  if (error instanceof MalformedExportError) fail(`Nothing was imported. ${error.message}`);
  throw error;
}

let cfg;
try {
  cfg = config();
} catch (error) {
  if (error instanceof ConfigurationError) fail(error.message);
  throw error;
}

const dryRun = args["dry-run"];
const db = openDatabase(cfg.databaseUrl);
function progress(step: string, done: number, total: number): void {
  if (!process.stderr.isTTY || total === 0) return;
  const width = 30;
  const filled = Math.round((done / total) * width);
  process.stderr.write(`\r${step.padEnd(9)} [${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total}`);
  if (done === total) process.stderr.write("\n");
}

function printReport(report: ImportReport): void {
  const verb = report.dryRun ? "would be " : "";
  console.log(
    `${report.dryRun ? "Dry run: nothing was changed." : "Import finished."} Firestore layout: ${report.layout}.`,
  );
  console.log(
    `${"".padEnd(12)} ${[`${verb}created`, `${verb}updated`, "unchanged", "skipped"].map((h) => h.padStart(16)).join("")}`,
  );
  for (const kind of REPORT_KINDS) {
    const c = report.counts[kind];
    console.log(
      `${kind.padEnd(12)} ${[c.created, c.updated, c.unchanged, c.skipped].map((n) => String(n).padStart(16)).join("")}`,
    );
  }
  if (report.matched.length > 0) {
    console.log(`\nLegacy news items already articles (${report.matched.length}):`);
    for (const { legacyId, articleId } of report.matched) console.log(`  news/${legacyId} = all-news/${articleId}`);
  }
  if (report.warnings.length > 0) {
    console.log(`\nWarnings (${report.warnings.length}):`);
    for (const { kind, id, message } of report.warnings) console.log(`  [${kind}] ${id}: ${message}`);
  }
}

try {
  if (dryRun) {
    const pending = await pendingMigrations(db);
    if (pending.length > 0)
      fail(
        `The database is not ready (migrations pending: ${pending.join(", ")}). Start the server once, or run without --dry-run.`,
      );
  } else await migrateToLatest(db);
  const report = await importFirebase(db, mediaStorageFor(cfg), sources, { dryRun, onProgress: progress });
  printReport(report);
} catch (error) {
  if (error instanceof MalformedExportError) fail(`Nothing was imported. ${error.message}`);
  // Each batch is a transaction: the one under way rolled back, those before it stay.
  fail(
    `The import stopped: ${(error as Error).message}\nThe batches before this one were imported; running the command again goes on from there.`,
  );
} finally {
  await db.destroy();
}
