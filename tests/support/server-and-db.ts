import { openDatabase, type DB } from "~/server/db/db.server";
import type { Engine } from "../../migrations/engine";
import { signedInAs, type TestAccount } from "../../harness/accounts";
import { startTestServer, startTestSite, type TestServer, type TestSite } from "../../harness/test-server";
import type { Session } from "../../harness/http-client";

export type ServerAndDb = { server: TestServer; db: DB };

/** The real server on a fresh site (`env` over the test configuration), and a connection to its database. */
export async function startServerAndDb(env: Record<string, string> = {}): Promise<ServerAndDb> {
  const server = await startTestServer(env);
  return { server, db: openDatabase(server.env.DATABASE_URL) };
}

export type TwoInstancesAndDb = { site: TestSite; a: TestServer; b: TestServer; db: DB };

/** Two instances of the real server on one fresh site of the engine under test (or of `engine`), and a connection to its database. */
export async function startTwoInstancesAndDb(
  env: Record<string, string> = {},
  engine?: Engine,
  poolSize?: number,
): Promise<TwoInstancesAndDb> {
  const site = await startTestSite(2, env, engine);
  const [a, b] = site.servers as [TestServer, TestServer];
  return { site, a, b, db: openDatabase(site.database.url, poolSize) };
}

/** Closes the connection, then stops the server or the site; what a failed start left undefined is passed over. */
export async function stopServerAndDb({
  db,
  server,
  site,
}: {
  db?: DB;
  server?: TestServer;
  site?: { stop: () => Promise<void> };
}): Promise<void> {
  await db?.destroy();
  await server?.stop();
  await site?.stop();
}

/** A new account of `account`'s role, signed in on `server`'s site: its session. */
export async function sessionAs(db: DB, server: TestServer, account: TestAccount): Promise<Session> {
  return { cookie: await signedInAs(db, server.site, account) };
}
