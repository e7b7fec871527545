import { readFileSync } from "node:fs";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { createTestAccount, TEST_PASSWORD } from "../../harness/accounts";
import { get, getExactly, signIn } from "../../harness/http-client";
import { createTestArticle } from "../../harness/articles";
import { startNginx, startSiteBehindNginx, type SiteBehindNginx } from "../../harness/nginx";
import { freePort } from "../../harness/test-server";
import { onPostgres } from "../../harness/postgres";
import { isRunning } from "../../harness/processes";
import { connectSse } from "../support/sse";
import { inPool } from "../support/pool";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

/** Sign-in failures an account may have from one address before it is locked (decision 005). */
const ACCOUNT_FAILURES = 10;

type Answer = { status: number; body: string };

const BROWSER = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";

/** A sign-in form posted to nginx from `clientAddress` (any 127.x address is this machine), as a browser there would. */
function signInFrom(
  site: SiteBehindNginx,
  clientAddress: string,
  email: string,
  password: string,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const body = new URLSearchParams({ intent: "signin", email, password, redirectTo: "/" }).toString();
  return new Promise((resolve, reject) => {
    const req = request(
      `${site.url}/autenction`,
      {
        method: "POST",
        localAddress: clientAddress,
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (chunk: Buffer) => (text += chunk.toString()));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

/** The upstreams nginx sent requests for `path` to, once its access log shows `count` of them. */
async function upstreamsOf(site: SiteBehindNginx, path: string, count: number): Promise<string[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const lines = site.nginx.accessLog().filter((line) => line.includes(` ${path} `));
    if (lines.length >= count || Date.now() > deadline) return lines.map((line) => line.split("upstream=")[1]!);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** CPU time a process has used so far, in clock ticks (Linux /proc). */
function cpuTicks(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
}

/** What every site behind nginx must do, with two instances or with one instance of two workers. */
function behavesAsOneSite(start: () => Promise<SiteBehindNginx>, spread: "instances" | "workers") {
  let site: SiteBehindNginx;
  let db: DB;
  const auth = () => ({ baseUrl: site.url, authSecret: site.instances[0]!.env.AUTH_SECRET });

  beforeAll(async () => {
    site = await start();
    db = openDatabase(site.instances[0]!.env.DATABASE_URL);
  });
  afterAll(() => stopServerAndDb({ site, db }));

  it("keeps a session made on one instance valid on the others", async () => {
    await createTestAccount(db, auth(), { email: "huda@example.com", username: "هدى", role: "admin" });
    const session = await signIn(site.url, "huda@example.com", TEST_PASSWORD);
    if (spread === "instances") {
      for (const instance of site.instances)
        expect((await get(`${instance.url}/dashboard`, session)).status, instance.url).toBe(200);
    }
    for (let i = 0; i < 6; i++)
      expect((await get(`${site.url}/dashboard`, session)).status, `through nginx, ${i + 1}`).toBe(200);
  });

  it("answers an article's Arabic readable address, percent-encoded, and leads /news/{id} and its short link there (decision 033)", async () => {
    const { id, shortId } = await createTestArticle(db, { title: "معرضُ الكتاب في طرابلس" });
    const canonical = `/news/${id}/${encodeURIComponent("معرض-الكتاب-في-طرابلس")}`;
    for (const from of [`/news/${id}`, `/${shortId}`, `/news/${id}/${encodeURIComponent("قديم")}`]) {
      const answer = await getExactly(`${site.url}${from}`);
      expect(answer.status, from).toBe(301);
      expect(answer.headers.get("location"), from).toBe(canonical);
    }
    for (let i = 0; i < 3; i++) {
      const page = await getExactly(`${site.url}${canonical}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`<link rel="canonical" href="${site.url}${canonical}"/>`);
    }
  });

  it("counts sign-in attempts made on every instance, per client address from nginx's X-Forwarded-For", async () => {
    await createTestAccount(db, auth(), { email: "omar@example.com", username: "عمر", role: "user" });
    // A client's own X-Forwarded-For is not believed: nginx adds the address it sees, and only nginx is trusted.
    const forged = { "x-forwarded-for": "198.51.100.23" };
    for (let i = 0; i < ACCOUNT_FAILURES; i++) {
      expect(
        (await signInFrom(site, "127.0.0.7", "omar@example.com", "wrongpass", forged)).status,
        `attempt ${i + 1}`,
      ).toBe(400);
    }
    if (spread === "instances") {
      const upstreams = await upstreamsOf(site, "/autenction", ACCOUNT_FAILURES);
      expect(new Set(upstreams).size, "the attempts went to both instances").toBe(2);
    }
    expect((await signInFrom(site, "127.0.0.7", "omar@example.com", TEST_PASSWORD)).status).toBe(429);
    expect(
      (await signInFrom(site, "127.0.0.7", "omar@example.com", TEST_PASSWORD, { "x-forwarded-for": "198.51.100.24" }))
        .status,
    ).toBe(429);
    // Another client address has its own count.
    expect((await signInFrom(site, "127.0.0.8", "omar@example.com", TEST_PASSWORD)).status).toBe(302);
  });

  it("sends readers' views to each instance's views process, never to the workers that serve pages, and counts each reader once", async () => {
    const { id } = await createTestArticle(db, { title: "خبر يُقرأ عبر الوكيل", content: "نص" });
    const path = `/api/news/${id}/visit`;
    for (let i = 0; i < 6; i++) {
      const view = await fetch(`${site.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": BROWSER },
        body: JSON.stringify({ reader: `nginx-reader-${spread}-${i}` }),
      });
      expect(view.status).toBe(200);
    }
    const viewsProcesses = site.instances.map((instance) => `127.0.0.1:${instance.env.VIEWS_PORT}`);
    const upstreams = await upstreamsOf(site, path, 6);
    expect(upstreams.filter((upstream) => !viewsProcesses.includes(upstream))).toEqual([]);
    if (spread === "instances") expect(new Set(upstreams).size, "both instances' views processes").toBe(2);
    await expect
      .poll(
        async () =>
          (await db.selectFrom("news").select("visits").where("id", "=", id).executeTakeFirstOrThrow()).visits,
        { timeout: 10_000 },
      )
      .toBe(6);
  });

  it("passes the breaking-news stream on unbuffered: the first message arrives while the stream stays open", async () => {
    const stream = await connectSse(`${site.url}/api/breaking/stream`);
    try {
      expect(stream.status).toBe(200);
      const [first] = await stream.waitFor(1, 2_000);
      expect(first!.data).toMatchObject({ type: "snapshot" });
    } finally {
      stream.close();
    }
  });
}

describe(`two instances on one ${onPostgres ? "PostgreSQL" : "SQLite"} database behind nginx`, () => {
  behavesAsOneSite(() => startSiteBehindNginx(2, { PAGE_CACHE_SECONDS: "0" }), "instances");
});

describe(`one instance with WORKERS=2 on ${onPostgres ? "PostgreSQL" : "SQLite"} behind nginx`, () => {
  let site: SiteBehindNginx;
  behavesAsOneSite(
    async () => (site = await startSiteBehindNginx(1, { WORKERS: "2", PAGE_CACHE_SECONDS: "0" })),
    "workers",
  );

  it("serves from both workers", async () => {
    const workers = site.instances[0]!.workerPids();
    expect(workers).toHaveLength(2);
    const before = workers.map(cpuTicks);
    // Requests at once: nginx opens several connections, each accepted by whichever worker is free
    // (one keep-alive connection stays with the worker that accepted it: decision 012).
    for (let wave = 0; wave < 6; wave++) {
      const statuses = await Promise.all(Array.from({ length: 10 }, async () => (await fetch(`${site.url}/`)).status));
      expect(statuses.every((status) => status === 200)).toBe(true);
    }
    const used = workers.map((pid, i) => cpuTicks(pid) - before[i]!);
    // Rendering a dozen pages takes well over 50 ms of CPU; an idle worker uses next to none.
    for (const ticks of used) expect(ticks, `CPU ticks per worker: ${used.join(", ")}`).toBeGreaterThanOrEqual(5);
  });

  it("replaces a worker that dies, and keeps serving meanwhile", async () => {
    const server = site.instances[0]!;
    const [victim, survivor] = server.workerPids();
    process.kill(victim!, "SIGKILL");
    const deadline = Date.now() + 30_000;
    while (
      isRunning(victim!) ||
      server.workerPids().length < 2 ||
      !server.output().includes("is serving; workers now")
    ) {
      expect((await fetch(`${site.url}/`)).status).toBe(200);
      if (Date.now() > deadline) throw new Error(`no replacement worker:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const now = server.workerPids();
    expect(now).toContain(survivor);
    expect(now).not.toContain(victim);
    expect(server.output()).toMatch(new RegExp(`worker ${victim} died \\(SIGKILL\\)`));
    for (let i = 0; i < 6; i++) expect((await fetch(`${site.url}/`)).status).toBe(200);
  });
});

describe("views while an instance's views process is down", () => {
  it("go to the instance's workers, which count them too", async () => {
    const { server, db } = await startServerAndDb({ TRUST_PROXY: "127.0.0.1" });
    const closed = await freePort();
    const nginx = await startNginx([new URL(server.url).host], undefined, [`127.0.0.1:${closed}`]);
    try {
      const { id } = await createTestArticle(db, { title: "خبر والعدّاد متوقف", content: "نص" });
      const view = await fetch(`${nginx.url}/api/news/${id}/visit`, {
        method: "POST",
        headers: { "content-type": "application/json", "user-agent": BROWSER },
        body: JSON.stringify({ reader: "nginx-reader-backup" }),
      });
      expect(view.status).toBe(200);
      // nginx logs a request once its answer has gone.
      await expect
        .poll(() => nginx.accessLog().find((line) => line.includes(`/api/news/${id}/visit`)))
        .toContain(`upstream=127.0.0.1:${closed}, ${new URL(server.url).host}`);
      await expect
        .poll(
          async () =>
            (await db.selectFrom("news").select("visits").where("id", "=", id).executeTakeFirstOrThrow()).visits,
          { timeout: 10_000 },
        )
        .toBe(1);
    } finally {
      await nginx.stop();
      await stopServerAndDb({ server, db });
    }
  });
  it(
    "a views process killed (-9) while views arrive: every view is answered 200, none 502, the rest of them by the workers",
    { timeout: 120_000 },
    async () => {
      const site = await startSiteBehindNginx(1);
      const db = openDatabase(site.instances[0]!.env.DATABASE_URL);
      try {
        const instance = site.instances[0]!;
        const { id } = await createTestArticle(db, { title: "خبر والعدّاد يُقتل", content: "نص" });
        const victim = instance.viewsPid()!;
        const VIEWS = 1_500;
        const statuses = await inPool(VIEWS, 20, async (i) => {
          // Killed with a fifth of the views sent, and the others' requests in flight on nginx's kept connections.
          if (i === VIEWS / 5) process.kill(victim, "SIGKILL");
          const view = await fetch(`${site.url}/api/news/${id}/visit`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "user-agent": BROWSER,
              "x-forwarded-for": `10.81.${i >> 8}.${i & 255}`,
            },
            body: JSON.stringify({ reader: `killed-views-reader-${i}` }),
          });
          await view.text();
          return view.status;
        });
        const counts = new Map<number, number>();
        for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
        // Stopped gracefully: the workers and the replaced views process write what they hold.
        process.kill(instance.pid, "SIGTERM");
        expect(await instance.exited).toBe(0);
        const { visits } = await db.selectFrom("news").select("visits").where("id", "=", id).executeTakeFirstOrThrow();
        console.log(
          "views process killed:",
          JSON.stringify({ statuses: Object.fromEntries(counts), counted: visits, lostWithIt: VIEWS - visits }),
        );
        expect(Object.fromEntries(counts)).toEqual({ 200: VIEWS });
        expect(instance.output()).toMatch(new RegExp(`${victim} died \\(SIGKILL\\)`));
      } finally {
        await db.destroy();
        await site.stop();
      }
    },
  );
});
