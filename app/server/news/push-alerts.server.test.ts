import { Migrator, type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { migrationsFor } from "../../../migrations/index";
import { onPostgres } from "../../../harness/postgres";
import { createEmptyDatabase } from "../../../harness/temp-db";
import { openDatabase } from "~/server/db/db.server";
import { queueAlert, queueLiveUpdateAlert } from "./push-alerts.server";

const at = new Date("2026-11-28T10:00:00.000Z");
const alert = (article_id: string, live_update_id: string | null) => ({
  article_id,
  live_update_id,
  kind: "manual",
  created_at: at.toISOString(),
});

describe("migration 035", () => {
  it("gives update alerts their own key, their story in article_id, and keeps every alert's id; down writes the old keys back", async () => {
    const engine = onPostgres ? "postgres" : "sqlite";
    const empty = await createEmptyDatabase();
    const older = openDatabase(empty.url);
    try {
      const migrator = new Migrator({ db: older, provider: { getMigrations: async () => migrationsFor(engine) } });
      await migrator.migrateTo("034-author-list-index");
      const raw = older as unknown as Kysely<Record<string, Record<string, unknown>>>;
      await raw
        .insertInto("push_alerts")
        .values([alert("n1", null), alert("n1#update-u7", "u7"), alert("n2#update-u8", "u8"), alert("n3", null)])
        .execute();
      // The newest alert deleted: a new one must not take its id, which opens and deliveries may still name.
      await raw.deleteFrom("push_alerts").where("article_id", "=", "n3").execute();
      expect((await migrator.migrateTo("035-update-alert-keys")).error).toBeUndefined();

      const rows = await older
        .selectFrom("push_alerts")
        .select(["id", "article_id", "live_update_id"])
        .orderBy("id")
        .execute();
      expect(rows.map((row) => [Number(row.id), row.article_id, row.live_update_id])).toEqual([
        [1, "n1", null],
        [2, "n1", "u7"],
        [3, "n2", "u8"],
      ]);
      await older.transaction().execute(async (trx) => {
        await queueAlert(trx, "n1", "manual", at);
        await queueLiveUpdateAlert(trx, "n1", "u7", at);
        await queueLiveUpdateAlert(trx, "n1", "u9", at);
        await queueAlert(trx, "n2", "breaking", at);
      });
      const after = await older
        .selectFrom("push_alerts")
        .select(["id", "article_id", "live_update_id"])
        .where("id", ">", 3)
        .orderBy("id")
        .execute();
      expect(after.map((row) => [row.article_id, row.live_update_id])).toEqual([
        ["n1", "u9"],
        ["n2", null],
      ]);
      expect(Number(after[0]!.id)).toBeGreaterThan(4);
      await expect(raw.insertInto("push_alerts").values(alert("n2", "u8")).execute()).rejects.toThrow(
        /unique|duplicate/i,
      );

      expect((await migrator.migrateTo("034-author-list-index")).error).toBeUndefined();
      const old = await older.selectFrom("push_alerts").select(["article_id"]).orderBy("id").execute();
      expect(old.map((row) => row.article_id)).toEqual(["n1", "n1#update-u7", "n2#update-u8", "n1#update-u9", "n2"]);
      await expect(raw.insertInto("push_alerts").values(alert("n1", null)).execute()).rejects.toThrow(
        /unique|duplicate/i,
      );
    } finally {
      await older.destroy();
      await empty.drop();
    }
  });
});
