/**
 * The hostile-input suite: over a thousand seeded requests (hostile-cases.ts) against one real server,
 * signed in as an admin and signed out. None may answer 5xx, leak a stack trace or a database error,
 * or change anything stored.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DB } from "~/server/db/db.server";
import { dialectName } from "~/server/db/dialect.server";
import { signedInAs } from "../../harness/accounts";
import { sendWholeBody } from "../../harness/raw-http";
import type { TestServer } from "../../harness/test-server";
import { hostileCases, nulCases, type HostileCase, type NulCase } from "./hostile-cases";
import { createTestArticle } from "../../harness/articles";
import { messages } from "~/lib/messages";
import { startServerAndDb, stopServerAndDb } from "../support/server-and-db";

const SEED = 12;
const LEAKS = /\n\s+at \S|\bat \S+ \(\/|Error: |node_modules|SQLITE|sqlite|syntax error/;
const CONCURRENCY = 4;

let server: TestServer;
let db: DB;
let admin: string;
let articleId: string;
let reviewId: string;

beforeAll(async () => {
  ({ server, db } = await startServerAndDb());
  admin = await signedInAs(db, server.site, { email: "editor@example.com", username: "محرر", role: "admin" });
  articleId = (
    await createTestArticle(db, { title: "خبر قائم", content: "نص قائم", category: "local", status: "published" })
  ).id;
  reviewId = (
    await createTestArticle(db, { title: "خبر للمراجعة", content: "نص", category: "local", status: "review" })
  ).id;
});
afterAll(() => stopServerAndDb({ server, db }));

function mediaFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => !f.startsWith(".staging"))
    .map((f) => `${f}:${statSync(path.join(dir, f)).size}`)
    .sort();
}

/** What content lives in (sessions and rate-limit rows excluded), and the media folder. */
async function stored(): Promise<string> {
  const [
    news,
    links,
    stats,
    search,
    users,
    settings,
    placements,
    topics,
    newsTopics,
    library,
    posters,
    subscriptions,
    alerts,
  ] = await Promise.all([
    db.selectFrom("news").selectAll().orderBy("id").execute(),
    db.selectFrom("short_links").selectAll().orderBy("short_id").execute(),
    db.selectFrom("site_stats").selectAll().execute(),
    // PostgreSQL's search tables come with migration 005-search-postgres (pg-search).
    dialectName(db) === "sqlite"
      ? db
          .selectFrom("news_search" as "news")
          .selectAll()
          .execute()
      : [],
    db.selectFrom("user").select(["email", "role", "name", "disabledAt"]).orderBy("email").execute(),
    db.selectFrom("site_settings").selectAll().execute(),
    db.selectFrom("front_page_placements").selectAll().orderBy("slot").execute(),
    db.selectFrom("topics").selectAll().orderBy("id").execute(),
    db.selectFrom("news_topics").selectAll().orderBy("news_id").orderBy("topic_id").execute(),
    db.selectFrom("media").selectAll().orderBy("url").execute(),
    db.selectFrom("video_posters").selectAll().execute(),
    db.selectFrom("push_subscriptions").selectAll().orderBy("endpoint").execute(),
    db.selectFrom("push_alerts").selectAll().orderBy("id").execute(),
  ]);
  return JSON.stringify({
    news,
    links,
    stats,
    search,
    users,
    settings,
    placements,
    topics,
    newsTopics,
    library,
    posters,
    subscriptions,
    alerts,
    media: mediaFiles(server.env.MEDIA_DIR),
  });
}

type Finding = { case: string; status: number; detail: string };

async function send(c: HostileCase): Promise<{ status: number; text: string }> {
  const headers = { ...(c.who === "admin" ? { cookie: admin } : {}), ...c.headers };
  if (c.raw) {
    const outcome = await sendWholeBody(`${server.url}${c.path}`, { method: c.method, headers });
    if (outcome.kind === "error") throw new Error(outcome.code);
    return { status: outcome.status, text: outcome.body };
  }
  const controller = new AbortController();
  const body = Buffer.isBuffer(c.body) ? new Uint8Array(c.body) : c.body;
  const response = await fetch(`${server.url}${c.path}`, {
    method: c.method,
    headers,
    body,
    redirect: "manual",
    signal: controller.signal,
  });
  let text = "";
  if (c.stream) {
    const reader = response.body?.getReader();
    const first = await reader?.read();
    text = new TextDecoder().decode(first?.value ?? new Uint8Array());
    controller.abort();
  } else {
    text = await response.text();
  }
  return { status: response.status, text };
}

async function run(c: HostileCase): Promise<Finding | null> {
  const { status, text } = await send(c);
  const label = `${c.name} [${c.who}] ${c.method} ${c.path.slice(0, 120)}`;
  if (status >= 500) return { case: label, status, detail: text.slice(0, 200) };
  const leak = LEAKS.exec(text);
  if (leak)
    return {
      case: label,
      status,
      detail: `leaks "${leak[0]}": ${text.slice(Math.max(0, leak.index - 80), leak.index + 80)}`,
    };
  return null;
}

it(
  "over a thousand hostile requests: no 5xx, no leaked internals, nothing stored changed",
  { timeout: 120_000 },
  async () => {
    const cases = hostileCases(SEED, { articleId, reviewId });
    expect(cases.length).toBeGreaterThanOrEqual(1000);
    const before = await stored();
    const findings: Finding[] = [];
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const finding = await run(c).catch((error: Error) => ({
          case: `${c.name} ${c.method} ${c.path.slice(0, 120)}`,
          status: 0,
          detail: String(error.cause ?? error),
        }));
        if (finding) findings.push(finding);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    console.log(
      `hostile input: ${cases.length} cases, ${findings.filter((f) => f.status >= 500).length} answered 5xx, ${findings.length} findings`,
    );
    expect.soft(findings).toEqual([]);
    expect(await stored()).toBe(before);
  },
);

/** What a refusal of `c` says about its field: the JSON body's `fields`, or the page's text. */
function namesField(c: NulCase, text: string): boolean {
  if (!text.startsWith("{")) return c.unseen === true || text.includes(messages.textHasNul);
  const fields = (JSON.parse(text) as { error?: { fields?: Record<string, string> } }).error?.fields ?? {};
  return fields[c.field] === messages.textHasNul;
}

it(
  "a NUL in any text field: a 400 with the Arabic message for that field, nothing stored",
  { timeout: 60_000 },
  async () => {
    const before = await stored();
    const answers = [];
    for (const c of nulCases({ articleId, reviewId })) {
      const { status, text } = await send(c);
      answers.push({ case: c.name, status, namesField: namesField(c, text) });
    }
    const wrong = answers.filter((a) => a.status !== 400 || !a.namesField);
    const statuses = new Map<number, number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    console.log(
      `NUL cases: ${answers.length}, answered 400 naming the field: ${answers.length - wrong.length}; statuses ${[...statuses].map(([s, n]) => `${s}×${n}`).join(" ")}`,
    );
    expect(wrong).toEqual([]);
    expect(await stored()).toBe(before);
  },
);
