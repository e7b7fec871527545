import { createHash } from "node:crypto";
import type { DB } from "~/server/db/db.server";

/** What an earlier import brought over (`firebase_imports`, migration 017). */
export type ImportKind = "article" | "account" | "media" | "site-visits";

export function fingerprintOf(value: unknown): string {
  return createHash("sha256").update(JSON.stringify(value)).digest("base64url");
}

export async function readImported(
  db: DB,
  kind: ImportKind,
  sourceIds: string[],
): Promise<Map<string, { fingerprint: string; target: string | null }>> {
  const found = new Map<string, { fingerprint: string; target: string | null }>();
  // In slices: a statement's parameters are limited (SQLite: 32766).
  for (let start = 0; start < sourceIds.length; start += 500) {
    const rows = await db
      .selectFrom("firebase_imports")
      .select(["source_id", "fingerprint", "target"])
      .where("kind", "=", kind)
      .where("source_id", "in", sourceIds.slice(start, start + 500))
      .execute();
    for (const row of rows) found.set(row.source_id, { fingerprint: row.fingerprint, target: row.target });
  }
  return found;
}

export async function recordImported(
  trx: DB,
  kind: ImportKind,
  sourceId: string,
  fingerprint: string,
  target: string | null = null,
): Promise<void> {
  await trx
    .insertInto("firebase_imports")
    .values({ kind, source_id: sourceId, fingerprint, target })
    .onConflict((oc) => oc.columns(["kind", "source_id"]).doUpdateSet({ fingerprint, target }))
    .execute();
}
