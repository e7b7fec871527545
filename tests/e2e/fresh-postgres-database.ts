/** Drops (if there) and creates the PostgreSQL e2e server's database, named by the argument, on the test server. */
import { createNamedPostgresDatabase, dropPostgresDatabase } from "../../harness/postgres";

const name = process.argv[2];
if (!name?.startsWith("akhbar_e2e_")) throw new Error("usage: fresh-postgres-database.ts akhbar_e2e_<port>");
await dropPostgresDatabase(name);
await createNamedPostgresDatabase(name);
