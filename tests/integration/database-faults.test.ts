/**
 * The database failing under the real server: a table locked by another session, a database that stops
 * answering, a full disk. Each is answered in our error model (503 with Retry-After, or 507), in Arabic,
 * never cached, within the lock wait, and nothing is stored behind the client's back.
 */
import { closeSync, openSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { messages } from "~/lib/messages";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { canonicalPath, publishArticle, publishForm } from "../../harness/articles";
import { onPostgres, TEST_POSTGRES_URL } from "../../harness/postgres";
import { mountSmallDisk, type SmallDisk } from "../support/small-disk";
import { refusedStart, startTestServer, type TestServer } from "../../harness/test-server";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

type Answer = {
  status: number;
  type: string;
  cacheControl: string;
  retryAfter: string | null;
  body: string;
  ms: number;
};

async function ask(url: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const response = await fetch(url, { redirect: "manual", ...init });
  const body = await response.text();
  const header = (name: string) => response.headers.get(name) ?? "";
  return {
    status: response.status,
    type: header("content-type"),
    cacheControl: header("cache-control"),
    retryAfter: response.headers.get("retry-after"),
    body,
    ms: performance.now() - started,
  };
}

/** A 503 in our error model: Retry-After, never stored, the Arabic message as JSON or on the error page. */
function expectUnavailable(answer: Answer, message: string, as: "json" | "page"): void {
  expect(answer.status).toBe(503);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(answer.cacheControl).toMatch(/no-store/);
  if (as === "json") expect(JSON.parse(answer.body)).toEqual({ error: { code: "unavailable", message } });
  else {
    expect(answer.type).toMatch(/^text\/html/);
    expect(answer.body).toContain(message);
  }
}

const titled = (db: DB, title: string) => db.selectFrom("news").select("id").where("title", "=", title).execute();

describe.runIf(onPostgres)("PostgreSQL failing under the server (PostgreSQL pass)", () => {
  let server: TestServer;
  let db: DB;
  let cookie = "";
  let articleId = "";
  /** The article's readable address (decision 033): `/news/{id}` would answer 301. */
  let articlePage = "";
  const databaseName = () => new URL(server.env.DATABASE_URL).pathname.slice(1);

  /** Runs `statement` as the test server's superuser, from its maintenance database. */
  async function asSuperuser(statement: string): Promise<void> {
    const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    // No page cache: every page below goes to the database.
    ({ server, db } = await startServerAndDb({ PAGE_CACHE_SECONDS: "0" }));
    cookie = await signedInAs(db, server.site, { email: "desk@example.com", username: "المكتب", role: "admin" });
    articleId = await publishArticle(server.url, { cookie }, { title: "خبر قبل العطل" });
    articlePage = await canonicalPath(db, articleId);
  });
  afterAll(() => stopServerAndDb({ server, db }));

  it("a table locked by another session: an uncached page and a publish answer 503 within the lock wait, and the publish never commits", async () => {
    const holder = new pg.Client({ connectionString: server.env.DATABASE_URL });
    await holder.connect();
    await holder.query("begin; lock table news in access exclusive mode");
    // Released once both are answered; the cap only ends a run where they wait for the lock forever.
    const cap = setTimeout(() => void holder.query("rollback"), 15_000);
    const [page, publish] = await Promise.all([
      ask(`${server.url}${articlePage}`),
      ask(`${server.url}/api/news`, {
        method: "POST",
        body: publishForm("خبر أثناء القفل"),
        headers: { cookie, origin: server.url },
      }),
    ]);
    clearTimeout(cap);
    await holder.query("rollback");
    await holder.end();
    console.log(
      "news locked:",
      JSON.stringify({ page: [page.status, Math.round(page.ms)], publish: [publish.status, Math.round(publish.ms)] }),
    );

    expectUnavailable(page, messages.databaseBusy, "page");
    expectUnavailable(publish, messages.databaseBusy, "json");
    // The lock wait is 5 s; the margin is for a loaded machine.
    expect(Math.max(page.ms, publish.ms)).toBeLessThan(7_000);
    expect(await titled(db, "خبر أثناء القفل")).toEqual([]);
    expect((await ask(`${server.url}${articlePage}`)).status).toBe(200);
  }, 30_000);

  it("a database that refuses connections: pages, the API and a signed-in page answer 503, never cached; answers again once it is back", async () => {
    const name = databaseName();
    await asSuperuser(`alter database "${name}" allow_connections false`);
    try {
      await asSuperuser(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
      );
      const [home, article, latest, account, publish] = await Promise.all([
        ask(`${server.url}/`),
        ask(`${server.url}${articlePage}`),
        ask(`${server.url}/api/latest`),
        ask(`${server.url}/dashboard/account`, { headers: { cookie } }),
        ask(`${server.url}/api/news`, {
          method: "POST",
          body: publishForm("خبر أثناء الانقطاع"),
          headers: { cookie, origin: server.url },
        }),
      ]);
      console.log(
        "database refusing:",
        JSON.stringify([home, article, latest, account, publish].map((a) => `${a.status} ${a.type.split(";")[0]}`)),
      );
      expectUnavailable(home, messages.databaseUnavailable, "page");
      expectUnavailable(article, messages.databaseUnavailable, "page");
      expectUnavailable(latest, messages.databaseUnavailable, "json");
      expectUnavailable(account, messages.databaseUnavailable, "page");
      expectUnavailable(publish, messages.databaseUnavailable, "json");
    } finally {
      await asSuperuser(`alter database "${name}" allow_connections true`);
    }
    expect((await ask(`${server.url}${articlePage}`)).status).toBe(200);
    expect((await ask(`${server.url}/dashboard/account`, { headers: { cookie } })).status).toBe(200);
    expect(await titled(db, "خبر أثناء الانقطاع")).toEqual([]);
  }, 60_000);

  it("warns at start when this instance's pools cannot fit in max_connections, and not when they can", async () => {
    expect(server.output()).not.toContain("PostgreSQL connections:");
    const oversized = await startTestServer({
      DATABASE_URL: server.env.DATABASE_URL,
      DATABASE_POOL_SIZE: "1000",
      WORKERS: "1",
    });
    await oversized.stop();
    const warning = oversized
      .output()
      .split("\n")
      .find((line) => line.includes("PostgreSQL connections:"));
    console.log("pools too large:", warning);
    expect(warning).toMatch(
      /may open 1001 \(DATABASE_POOL_SIZE 1000 \+ 1 for change notifications, in its one process\) .* but the server allows \d+/,
    );
    // A cluster's helpers keep pools too: two workers and the sender process.
    const cluster = await startTestServer({
      DATABASE_URL: server.env.DATABASE_URL,
      DATABASE_POOL_SIZE: "1000",
      WORKERS: "2",
      LOG_LEVEL: "info",
    });
    await cluster.stop();
    expect(cluster.output()).toMatch(
      /may open 3003 \(DATABASE_POOL_SIZE 1000 \+ 1 for change notifications, in each of its 3 processes: 2 workers and the sender process\)/,
    );
  }, 60_000);
});

/** Writes zeros into a file on `dir` until its disk is full; returns the file. */
function fillDisk(dir: string): string {
  const file = path.join(dir, "filler");
  const fd = openSync(file, "w");
  const chunk = Buffer.alloc(64 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

describe.skipIf(onPostgres)("a full disk under the SQLite database (SQLite pass)", () => {
  let disk: SmallDisk;
  beforeAll(() => {
    disk = mountSmallDisk(16 * 1024 * 1024);
  });
  afterAll(() => disk?.remove());

  it("a text publish answers 507 with the Arabic message and stores nothing; publishing works once there is room", async () => {
    const server = await startTestServer({ DATABASE_URL: path.join(disk.dir, "site.db") });
    const db = openDatabase(server.env.DATABASE_URL);
    try {
      const cookie = await signedInAs(db, server.site, {
        email: "desk@example.com",
        username: "المكتب",
        role: "admin",
      });
      const filler = fillDisk(disk.dir);
      // SQLite may still have room in pages it holds; the disk refuses within a few writes.
      const tried: Answer[] = [];
      for (let i = 0; i < 50 && tried.at(-1)?.status !== 507 && tried.at(-1)?.status !== 500; i++) {
        tried.push(
          await ask(`${server.url}/api/news`, {
            method: "POST",
            body: publishForm(`خبر على قرص ممتلئ ${i}`, { content: "نص ".repeat(2_000) }),
            headers: { cookie, origin: server.url },
          }),
        );
      }
      const refused = tried.at(-1)!;
      console.log("disk full:", JSON.stringify({ publishes: tried.map((a) => a.status) }));
      expect(refused.status).toBe(507);
      expect(refused.cacheControl).toMatch(/no-store/);
      expect(JSON.parse(refused.body)).toEqual({ error: { code: "storage-full", message: messages.databaseFull } });
      expect(await titled(db, `خبر على قرص ممتلئ ${tried.length - 1}`)).toEqual([]);

      rmSync(filler);
      expect(
        (
          await ask(`${server.url}/api/news`, {
            method: "POST",
            body: publishForm("خبر بعد إفراغ القرص"),
            headers: { cookie, origin: server.url },
          })
        ).status,
      ).toBe(201);
    } finally {
      await stopServerAndDb({ server, db });
      rmSync(path.join(disk.dir, "filler"), { force: true });
    }
  }, 60_000);

  it.each([
    [
      "stopped, its disk filled after",
      async (server: TestServer) => {
        await server.stop();
        return fillDisk(disk.dir);
      },
    ],
    [
      "killed (-9) once its disk filled, its WAL left behind",
      async (server: TestServer) => {
        const filler = fillDisk(disk.dir);
        process.kill(server.pid, "SIGKILL");
        await server.exited;
        return filler;
      },
    ],
  ])(
    "an existing site %s, restarted, says in one line which folder is full, and exits 1",
    async (_, stopOnFullDisk) => {
      const name = `existing-${Math.random().toString(36).slice(2)}`;
      const env = { DATABASE_URL: path.join(disk.dir, `${name}.db`), MEDIA_DIR: path.join(disk.dir, `${name}-media`) };
      const server = await startTestServer(env);
      let filler: string | undefined;
      try {
        filler = await stopOnFullDisk(server);
        const output = await refusedStart(disk.dir, env);
        console.log("restart on a full disk:", output.trim());
        expect(output.trim().split("\n")).toHaveLength(1);
        expect(output).toContain(disk.dir);
      } finally {
        if (filler) rmSync(filler);
        await server.stop();
      }
    },
    60_000,
  );

  it("npm start on a full disk says in one line which folder is full, and exits 1", async () => {
    const filler = fillDisk(disk.dir);
    try {
      const output = await refusedStart(disk.dir, { DATABASE_URL: path.join(disk.dir, "new-site.db") });
      console.log("start on a full disk:", output.trim());
      expect(output.trim().split("\n")).toHaveLength(1);
      expect(output).toContain(disk.dir);
    } finally {
      rmSync(filler);
    }
  }, 30_000);
});
