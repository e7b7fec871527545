import type { Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/** When an admin disabled the account; null while it may sign in (decision 023). */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.alterTable("user").addColumn("disabledAt", momentType(engine, "date")).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("user").dropColumn("disabledAt").execute();
}
