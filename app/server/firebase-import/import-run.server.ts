import type { FirebaseHashConfig } from "~/server/accounts/firebase-scrypt.server";
import type { DB } from "~/server/db/db.server";
import type { MediaStorage } from "~/server/media/storage.server";
import type { FirestoreDocument, FirestoreExport } from "./firestore-export.server";
import type { ImportReport } from "./import-report.server";

export type ImportSources = {
  firestore: FirestoreExport;
  /** The raw entries of the Auth export's `users` list, or null without --auth. */
  authUsers: unknown[] | null;
  hashConfig: FirebaseHashConfig | null;
  /** The local copy of the Storage bucket, or null without --storage. */
  storageDir: string | null;
};

export type ImportOptions = {
  dryRun: boolean;
  /** Documents written per transaction. */
  batchSize?: number;
  onProgress?: (step: "articles" | "accounts", done: number, total: number) => void;
};

/** One run of the import: what each step reads from and writes to, and the report they all fill. */
export type Run = {
  db: DB;
  storage: MediaStorage;
  sources: ImportSources;
  options: ImportOptions;
  report: ImportReport;
};

export const DEFAULT_BATCH_SIZE = 25;

export function collection(sources: ImportSources, name: string): [string, FirestoreDocument][] {
  return [...(sources.firestore.collections.get(name) ?? new Map<string, FirestoreDocument>()).entries()];
}

export function inBatches<T>(items: T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}
