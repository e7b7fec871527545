import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { messages } from "~/lib/messages";
import { VISITS_PER_ADDRESS_FOR_SITE, VISITS_PER_ADDRESS_PER_ARTICLE } from "~/lib/constants";
import { openDatabase, type DB } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { SCHED_IDLE, SCHED_OTHER, schedulingPolicies } from "../../harness/processes";
import { freePort, startTestServer, startTestSite, type TestServer } from "../../harness/test-server";
import { createTestArticle } from "../../harness/articles";
import { inPool } from "../support/pool";
import { sendWholeBody } from "../../harness/raw-http";

/** Behind a trusted proxy on the same machine, so X-Forwarded-For names each client (decision 005). */
let server: TestServer;
let db: DB;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "loopback" });
  db = openDatabase(server.env.DATABASE_URL);
});
afterAll(async () => {
  await db.destroy();
  await server.stop();
});

const PHONE =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36";
const DESKTOP = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36";
let readers = 0;
/** A fresh browser's own id, as the island makes one. */
const newReader = () => `reader-${String(++readers).padStart(12, "0")}`;

type Visit = { reader: string; address: string; userAgent?: string; referrer?: string; utm?: string; cookie?: string };
async function visit(
  path: string,
  { reader, address, userAgent = PHONE, referrer = "", utm = "", cookie }: Visit,
  base = server.url,
): Promise<number> {
  const response = await fetch(`${base}${path}`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "x-forwarded-for": address,
      "user-agent": userAgent,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify({ reader, referrer, utm }),
  });
  await response.text();
  return response.status;
}
const visitsOf = async (id: string) =>
  (await db.selectFrom("news").select("visits").where("id", "=", id).executeTakeFirstOrThrow()).visits;
const siteVisits = async () =>
  (await db.selectFrom("site_stats").select("total_visits").executeTakeFirstOrThrow()).total_visits;
const published = async () => (await createTestArticle(db, { title: "خبر للعدّ", content: "نص", category: "local" })).id;

/**
 * Views are buffered and written in order: once a later view on a story of its own is counted, every
 * view before it is written too.
 */
async function allWritten(): Promise<void> {
  const marker = await published();
  expect(await visit(`/api/news/${marker}/visit`, { reader: newReader(), address: "192.0.2.250" })).toBe(200);
  await expect.poll(() => visitsOf(marker), { timeout: 10_000 }).toBe(1);
}

describe("visits count once per browser", () => {
  it("three browsers behind one address count 3; a browser that asks again counts once", async () => {
    const id = await published();
    const browsers = [newReader(), newReader(), newReader()];
    for (const reader of [...browsers, browsers[0]!, browsers[1]!])
      expect(await visit(`/api/news/${id}/visit`, { reader, address: "198.51.100.9" })).toBe(200);
    const before = await siteVisits();
    for (const reader of browsers)
      expect(await visit("/api/site-visit", { reader, address: "198.51.100.9" })).toBe(200);
    await allWritten();
    expect(await visitsOf(id)).toBe(3);
    expect(await siteVisits()).toBe(before + 3);
  });

  it(
    `one client forging 10,000 browsers counts ${VISITS_PER_ADDRESS_PER_ARTICLE} for an article`,
    { timeout: 300_000 },
    async () => {
      const id = await published();
      const statuses = await inPool(10_000, 100, () =>
        visit(`/api/news/${id}/visit`, { reader: newReader(), address: "203.0.113.66" }),
      );
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      await allWritten();
      expect(await visitsOf(id)).toBe(VISITS_PER_ADDRESS_PER_ARTICLE);
      // Another address is not held back by it.
      expect(await visit(`/api/news/${id}/visit`, { reader: newReader(), address: "203.0.113.67" })).toBe(200);
      await expect.poll(() => visitsOf(id), { timeout: 10_000 }).toBe(VISITS_PER_ADDRESS_PER_ARTICLE + 1);
    },
  );

  it(`and at most ${VISITS_PER_ADDRESS_FOR_SITE} for the site`, { timeout: 300_000 }, async () => {
    const before = await siteVisits();
    await inPool(VISITS_PER_ADDRESS_FOR_SITE + 200, 100, () =>
      visit("/api/site-visit", { reader: newReader(), address: "203.0.113.70" }),
    );
    await allWritten();
    expect(await siteVisits()).toBe(before + VISITS_PER_ADDRESS_FOR_SITE);
  });

  it(
    "stays exact for distinct readers: 10,000 browsers from 10,000 addresses store 10,000",
    { timeout: 300_000 },
    async () => {
      const id = await published();
      const statuses = await inPool(10_000, 100, (i) =>
        visit(`/api/news/${id}/visit`, {
          reader: newReader(),
          address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        }),
      );
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      await allWritten();
      expect(await visitsOf(id)).toBe(10_000);
      const daily = await db
        .selectFrom("stats_daily")
        .select((eb) => eb.fn.sum<number>("views").as("views"))
        .where("news_id", "=", id)
        .executeTakeFirstOrThrow();
      expect(Number(daily.views)).toBe(10_000);
    },
  );

  it("never counts the newsroom's own views or crawlers", async () => {
    const id = await published();
    const admin = await signedInAs(db, server.site, { email: "editor@example.com", username: "محرر", role: "admin" });
    const before = await siteVisits();
    expect(await visit(`/api/news/${id}/visit`, { reader: newReader(), address: "198.51.100.77", cookie: admin })).toBe(
      200,
    );
    expect(await visit("/api/site-visit", { reader: newReader(), address: "198.51.100.77", cookie: admin })).toBe(200);
    const scripted = [
      "python-requests/2.31.0",
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/126.0.0.0 Safari/537.36",
    ];
    for (const userAgent of [
      "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
      "facebookexternalhit/1.1",
      "",
      ...scripted,
    ]) {
      expect(await visit(`/api/news/${id}/visit`, { reader: newReader(), address: "198.51.100.78", userAgent })).toBe(
        200,
      );
    }
    await allWritten();
    expect(await visitsOf(id)).toBe(0);
    expect(await siteVisits()).toBe(before);
  });

  it("keeps only classes: source and device, never the address, the browser's id or the referrer", async () => {
    const id = await published();
    const reader = newReader();
    await visit(`/api/news/${id}/visit`, {
      reader,
      address: "198.51.100.40",
      referrer: "https://l.facebook.com/l.php?u=x",
    });
    await visit(`/api/news/${id}/visit`, {
      reader: newReader(),
      address: "198.51.100.41",
      utm: "whatsapp",
      userAgent: DESKTOP,
    });
    await visit(`/api/news/${id}/visit`, {
      reader: newReader(),
      address: "198.51.100.42",
      referrer: "https://www.google.com.lb/",
    });
    await visit(`/api/news/${id}/visit`, {
      reader: newReader(),
      address: "198.51.100.43",
      referrer: `${server.url}/local`,
    });
    await allWritten();
    const rows = await db
      .selectFrom("stats_daily")
      .select(["source", "device", "views"])
      .where("news_id", "=", id)
      .orderBy("source")
      .execute();
    expect(rows.map((row) => [row.source, row.device, Number(row.views)])).toEqual([
      ["facebook", "phone", 1],
      ["google-search", "phone", 1],
      ["internal", "phone", 1],
      ["whatsapp", "desktop", 1],
    ]);
    const everything = JSON.stringify(
      await Promise.all(
        ["visit_marks", "visit_allowances", "stats_hourly", "stats_daily", "stats_readers", "stats_live"].map((table) =>
          db
            .selectFrom(table as "stats_live")
            .selectAll()
            .execute(),
        ),
      ),
    );
    for (const secret of ["198.51.100.4", reader, "facebook.com", "google.com", "Pixel"])
      expect(everything).not.toContain(secret);
  });

  it("refuses a visit without a browser id (400), too large (413) or from another site (403), and a draft's with a quiet 404", async () => {
    const id = await published();
    const missing = await fetch(`${server.url}/api/news/${id}/visit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(missing.status).toBe(400);
    const huge = await fetch(`${server.url}/api/news/${id}/visit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ reader: newReader(), referrer: "x".repeat(8_000) }),
    });
    expect(huge.status).toBe(413);
    const crossSite = await fetch(`${server.url}/api/news/${id}/visit`, {
      method: "POST",
      headers: { origin: "https://evil.example" },
      body: new URLSearchParams({ reader: newReader() }),
    });
    expect(crossSite.status).toBe(403);
    const draft = await createTestArticle(db, { title: "مسودة", content: "نص", category: "local", status: "draft" });
    const response = await fetch(`${server.url}/api/news/${draft.id}/visit`, {
      method: "POST",
      body: new URLSearchParams({ reader: newReader() }),
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not-found", message: messages.newsNotFound } });
    for (const unusable of ["%00", "%E0%A4%A", "x%00y"]) {
      const answer = await fetch(`${server.url}/api/news/${unusable}/visit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ reader: newReader() }),
      });
      expect([unusable, answer.status]).toEqual([unusable, 404]);
    }
    const asked = await fetch(`${server.url}/api/news/${id}/visit`);
    expect([asked.status, asked.headers.get("allow")]).toEqual([405, "POST"]);
  });

  it("says Connection: close on a refusal whose body it stops reading, as it then closes the connection", async () => {
    // Past what the server reads and drops (16 MB) before it answers: the answer goes out, then the connection closes.
    const outcome = await sendWholeBody(`${server.url}/api/site-visit`, {
      method: "POST",
      headers: { "content-type": "application/json", connection: "keep-alive" },
      body: Buffer.alloc(20 * 1024 * 1024, 0x61),
    });
    expect(outcome).toMatchObject({ kind: "complete", status: 413, headers: { connection: "close" } });
  });

  it("answers a view, and every refusal, with the security headers and never to be stored", async () => {
    const id = await published();
    const answers = [
      await fetch(`${server.url}/api/news/${id}/visit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ reader: newReader() }),
      }),
      await fetch(`${server.url}/api/site-visit`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{",
      }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 400]);
    for (const answer of answers) {
      expect(answer.headers.get("cache-control")).toContain("no-store");
      expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
      expect(answer.headers.get("content-security-policy")).toContain("default-src");
    }
  });
});

describe("across instances", () => {
  it(
    "two servers on one database count every reader once and hold an address to its bound together; each writes what it holds when it stops",
    { timeout: 300_000 },
    async () => {
      const site = await startTestSite(2, { TRUST_PROXY: "loopback" });
      const shared = openDatabase(site.database.url);
      try {
        const forgedOn = (await createTestArticle(shared, { title: "خبر للمزوّر", content: "نص", category: "local" }))
          .id;
        const readOn = (await createTestArticle(shared, { title: "خبر للقراء", content: "نص", category: "local" })).id;
        const on = (i: number) => site.servers[i % 2]!.url;
        const forged = await inPool(1_000, 50, (i) =>
          visit(`/api/news/${forgedOn}/visit`, { reader: newReader(), address: "203.0.113.90" }, on(i)),
        );
        const distinct = await inPool(1_000, 50, (i) =>
          visit(`/api/news/${readOn}/visit`, { reader: newReader(), address: `10.77.${i >> 8}.${i & 255}` }, on(i)),
        );
        expect([...forged, ...distinct].filter((status) => status !== 200)).toEqual([]);
        // Stopped at once: what each still held is written on the way out.
        await Promise.all(site.servers.map((instance) => instance.stop()));
        const visits = async (id: string) =>
          (await shared.selectFrom("news").select("visits").where("id", "=", id).executeTakeFirstOrThrow()).visits;
        expect(await visits(forgedOn)).toBe(VISITS_PER_ADDRESS_PER_ARTICLE);
        expect(await visits(readOn)).toBe(1_000);
      } finally {
        await shared.destroy();
        await site.stop();
      }
    },
  );
});

describe("the views process (VIEWS_PORT, decision 042)", () => {
  it(
    "counts the views sent to its port as the workers count theirs, each reader once across both, writes what it holds when stopped, and answers nothing else",
    { timeout: 120_000 },
    async () => {
      const viewsPort = await freePort();
      const instance = await startTestServer({
        TRUST_PROXY: "loopback",
        VIEWS_PORT: String(viewsPort),
        LOG_LEVEL: "info",
      });
      const views = `http://127.0.0.1:${viewsPort}`;
      const own = openDatabase(instance.env.DATABASE_URL);
      try {
        expect(instance.output()).toMatch(
          /1 worker, the views process and the sender process are serving: \d+, \d+, \d+ \(primary \d+\)/,
        );
        // The views process logs its address in its listen callback, which may come after the primary's line.
        await vi.waitFor(() => expect(instance.viewsPid()).toEqual(expect.any(Number)));
        expect(instance.workerPids()).toHaveLength(1);
        // Every thread of the views process yields its core to a worker's at once; the worker's do not.
        expect(schedulingPolicies(instance.viewsPid()!)).toEqual([SCHED_IDLE]);
        expect(schedulingPolicies(instance.workerPids()[0]!)).toEqual([SCHED_OTHER]);
        const forgedOn = (await createTestArticle(own, { title: "خبر للمزوّر", content: "نص", category: "local" })).id;
        const readOn = (await createTestArticle(own, { title: "خبر للقراء", content: "نص", category: "local" })).id;
        const draft = await createTestArticle(own, {
          title: "مسودة",
          content: "نص",
          category: "local",
          status: "draft",
        });
        const refused = await fetch(`${views}/api/news/${draft.id}/visit`, {
          method: "POST",
          body: new URLSearchParams({ reader: newReader() }),
        });
        expect(refused.status).toBe(404);
        expect(await refused.json()).toEqual({ error: { code: "not-found", message: messages.newsNotFound } });
        const asked = await fetch(`${views}/api/site-visit`);
        expect([asked.status, asked.headers.get("allow")]).toEqual([405, "POST"]);
        for (const path of ["/", `/news/${readOn}`, "/api/latest", "/dashboard"]) {
          const answer = await fetch(`${views}${path}`, { redirect: "manual" });
          expect([path, answer.status, answer.headers.get("cache-control")]).toEqual([
            path,
            404,
            expect.stringContaining("no-store"),
          ]);
          expect(await answer.json()).toEqual({ error: { code: "not-found", message: messages.pageNotFound } });
        }

        const on = (i: number) => (i % 2 === 0 ? views : instance.url);
        const forged = await inPool(300, 20, (i) =>
          visit(`/api/news/${forgedOn}/visit`, { reader: newReader(), address: "203.0.113.91" }, on(i)),
        );
        const readers = Array.from({ length: 300 }, (_, i) => ({
          reader: newReader(),
          address: `10.78.${i >> 8}.${i & 255}`,
        }));
        // Each reader once on the views process and once on the worker: the second view counts nothing, wherever it lands.
        const distinct = await inPool(600, 20, (i) =>
          visit(`/api/news/${readOn}/visit`, readers[i % 300]!, on(i + Math.floor(i / 300))),
        );
        const lastOn = (
          await createTestArticle(own, { title: "خبر لعدّاد المشاهدات وحده", content: "نص", category: "local" })
        ).id;
        const last = await inPool(200, 20, (i) =>
          visit(`/api/news/${lastOn}/visit`, { reader: newReader(), address: `10.79.0.${i}` }, views),
        );
        expect([...forged, ...distinct, ...last].filter((status) => status !== 200)).toEqual([]);

        // Stopped as the last view is answered: what each process still held is written on the way out.
        process.kill(instance.pid, "SIGTERM");
        expect(await instance.exited).toBe(0);
        const visits = async (id: string) =>
          (await own.selectFrom("news").select("visits").where("id", "=", id).executeTakeFirstOrThrow()).visits;
        expect(await visits(forgedOn)).toBe(VISITS_PER_ADDRESS_PER_ARTICLE);
        expect(await visits(readOn)).toBe(300);
        expect(await visits(lastOn)).toBe(200);
      } finally {
        await own.destroy();
        await instance.stop();
      }
    },
  );
});
