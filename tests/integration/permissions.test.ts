/**
 * The permission matrix: every route that changes something (and every guarded page) is tried by a
 * visitor, a user and an admin. Only the allowed roles succeed; the others are refused and the
 * database is left exactly as it was. Every new mutating route joins ROUTES.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type DB } from "~/server/db/db.server";
import { get, post, VISITOR, type Session } from "../support/http";
import { startTestServer, type TestServer } from "../support/test-server";
import { createTestAccount, sessionCookie } from "../support/accounts";
import { createTestArticle, publishForm } from "../support/articles";

const execFileAsync = promisify(execFile);

type Role = "visitor" | "user" | "admin";
type Context = { articleId: string; disposableId: string; role: Role; run: number };
type RouteCase = {
  name: string;
  allowed: Role[];
  send: (base: string, session: Session, ctx: Context) => Promise<Response>;
};

const EVERYONE: Role[] = ["visitor", "user", "admin"];

const ROUTES: RouteCase[] = [
  {
    name: "POST /api/news/:id/visit",
    allowed: EVERYONE,
    send: (base, session, ctx) => post(`${base}/api/news/${ctx.articleId}/visit`, {}, session),
  },
  { name: "POST /api/site-visit", allowed: EVERYONE, send: (base, session) => post(`${base}/api/site-visit`, {}, session) },
  {
    name: "POST /autenction (register)",
    allowed: EVERYONE,
    send: (base, session, ctx) =>
      post(`${base}/autenction`, { intent: "signup", username: "جديد", email: `new-${ctx.role}-${ctx.run}@example.com`, password: "secret123" }, session),
  },
  { name: "POST /sign-out", allowed: ["user", "admin"], send: (base, session) => post(`${base}/sign-out`, {}, session) },
  { name: "GET /dashboard", allowed: ["admin"], send: (base, session) => get(`${base}/dashboard`, session) },
  { name: "POST /dashboard (publish)", allowed: ["admin"], send: (base, session) => post(`${base}/dashboard`, publishForm("من النموذج"), session) },
  { name: "POST /api/news", allowed: ["admin"], send: (base, session) => post(`${base}/api/news`, publishForm("من الواجهة البرمجية"), session) },
  { name: "GET /edit-news/:id", allowed: ["admin"], send: (base, session, ctx) => get(`${base}/edit-news/${ctx.articleId}`, session) },
  {
    name: "POST /edit-news/:id",
    allowed: ["admin"],
    send: (base, session, ctx) => post(`${base}/edit-news/${ctx.disposableId}`, publishForm("معدّل"), session),
  },
  {
    name: "PUT /api/news/:id",
    allowed: ["admin"],
    send: (base, session, ctx) => send("PUT", `${base}/api/news/${ctx.disposableId}`, publishForm("معدّل"), session),
  },
  {
    name: "POST /news/:id/delete",
    allowed: ["admin"],
    send: (base, session, ctx) => post(`${base}/news/${ctx.disposableId}/delete`, { redirectTo: "/" }, session),
  },
  { name: "DELETE /api/news/:id", allowed: ["admin"], send: (base, session, ctx) => send("DELETE", `${base}/api/news/${ctx.disposableId}`, undefined, session) },
];

function send(method: "PUT" | "DELETE", url: string, body: FormData | undefined, session: Session): Promise<Response> {
  return fetch(url, { method, body, redirect: "manual", headers: session.cookie ? { cookie: session.cookie } : {} });
}

let server: TestServer;
let db: DB;
let articleId = "";
let run = 0;

async function sessionFor(role: Role): Promise<Session> {
  if (role === "visitor") return VISITOR;
  return { cookie: await sessionCookie(db, server.site, `${role}@example.com`) };
}

/** Everything a refused request must leave untouched. */
async function snapshot(): Promise<string> {
  const [news, links, stats, users] = await Promise.all([
    db.selectFrom("news").selectAll().orderBy("id").execute(),
    db.selectFrom("short_links").selectAll().orderBy("short_id").execute(),
    db.selectFrom("site_stats").selectAll().execute(),
    db.selectFrom("user").select(["id", "email", "role", "name"]).orderBy("id").execute(),
  ]);
  return JSON.stringify({ news, links, stats, users });
}

beforeAll(async () => {
  server = await startTestServer();
  db = openDatabase(server.env.DATABASE_URL);
  const site = server.site;
  await createTestAccount(db, site, { email: "user@example.com", username: "قارئ", role: "user" });
  await createTestAccount(db, site, { email: "admin@example.com", username: "محرر", role: "admin" });
  articleId = (await createTestArticle(db, { title: "خبر للاختبار", content: "نص", category: "local" })).id;
});
afterAll(async () => {
  await db.destroy();
  await server.stop();
});

describe("permission matrix", () => {
  for (const route of ROUTES) {
    for (const role of EVERYONE) {
      const allowed = route.allowed.includes(role);
      it(`${route.name} as ${role}: ${allowed ? "allowed" : "refused"}`, async () => {
        const session = await sessionFor(role);
        const disposableId = (await createTestArticle(db, { title: "للحذف أو التعديل", content: "نص", category: "breaking" })).id;
        const before = await snapshot();
        const response = await route.send(server.url, session, { articleId, disposableId, role, run: ++run });
        const location = response.headers.get("location") ?? "";
        if (allowed) {
          expect(response.status).toBeLessThan(400);
          expect(location).not.toMatch(/^\/autenction/);
        } else {
          if (role === "visitor") {
            expect([302, 401, 403]).toContain(response.status);
            if (response.status === 302) expect(location).toMatch(/^\/autenction\?redirectTo=/);
          } else {
            expect(response.status).toBe(403);
          }
          expect(await snapshot()).toBe(before);
        }
      });
    }
  }

  it("refuses every mutating route from another site, even for an admin, and changes nothing", async () => {
    const admin = await sessionFor("admin");
    const before = await snapshot();
    const crossSite = { origin: "https://evil.example" };
    const paths = [`/api/news/${articleId}/visit`, "/api/site-visit", "/sign-out", "/autenction", "/dashboard", "/api/news", `/api/news/${articleId}`, `/edit-news/${articleId}`, `/news/${articleId}/delete`];
    for (const path of paths) {
      const fields = { intent: "signup", username: "x", email: "x@example.com", password: "secret123" };
      const response = await post(`${server.url}${path}`, fields, admin, crossSite);
      expect(response.status, path).toBe(403);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe("npm run user", () => {
  // Asynchronous, so the event loop sees the server close idle keep-alive connections meanwhile.
  const cli = async (...args: string[]) => {
    try {
      const { stdout } = await execFileAsync(process.execPath, ["--import", "tsx", "scripts/user.ts", ...args], { env: { ...process.env, ...server.env } });
      return stdout;
    } catch (error) {
      throw new Error(String((error as { stderr?: string }).stderr ?? error));
    }
  };

  it("promotes and demotes by email", async () => {
    expect(await cli("promote", "user@example.com")).toContain("is now an admin");
    expect((await db.selectFrom("user").select("role").where("email", "=", "user@example.com").executeTakeFirstOrThrow()).role).toBe("admin");
    expect(await cli("demote", "user@example.com")).toContain("is now a user");
    expect((await db.selectFrom("user").select("role").where("email", "=", "user@example.com").executeTakeFirstOrThrow()).role).toBe("user");
  });

  it("creates an admin with a printed password that signs in", async () => {
    const output = await cli("create-admin", "editor@example.com", "رئيس", "التحرير");
    const password = /password: (\S+)/.exec(output)?.[1];
    expect(password).toBeTruthy();
    const row = await db.selectFrom("user").select(["role", "name"]).where("email", "=", "editor@example.com").executeTakeFirstOrThrow();
    expect(row).toEqual({ role: "admin", name: "رئيس التحرير" });
    const response = await post(`${server.url}/autenction`, { intent: "signin", email: "editor@example.com", password: password! });
    expect(response.status).toBe(302);
  });

  it("says what is wrong for an unknown email or a bad command", async () => {
    await expect(cli("promote", "ghost@example.com")).rejects.toThrow(/No account has the email ghost@example.com/);
    await expect(cli("promote", "not-an-email")).rejects.toThrow(/Not a valid email address/);
    await expect(cli("explode")).rejects.toThrow(/Usage/);
  });
});
