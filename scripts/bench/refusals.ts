/**
 * Refused requests with bodies: for each kind of refusal and each body size, sends N requests that
 * write their whole body through node:http and counts complete responses against connection resets.
 * Usage: npm run bench:refusals -- [N, default 50] (needs a build: npm run build).
 */
import { openDatabase } from "~/server/db/db.server";
import { signedInAs } from "../../harness/accounts";
import { multipartBody, sendWholeBody } from "../../harness/raw-http";
import { startTestServer } from "../../harness/test-server";

const perSize = Number(process.argv[2] ?? 50);
const SIZES = [1024, 32 * 1024, 256 * 1024, 1024 * 1024, 5 * 1024 * 1024];
const CONCURRENCY = 4;

const server = await startTestServer();
const db = openDatabase(server.env.DATABASE_URL);
const cookie = await signedInAs(
  db,
  { baseUrl: server.url, authSecret: server.env.AUTH_SECRET },
  { email: "bench@example.com", username: "محرر", role: "admin" },
);
await db.destroy();

type Kind = { name: string; method: string; path: string; headers: Record<string, string>; contentType?: string };
const KINDS: Kind[] = [
  { name: "404 PUT /api/news/<missing>", method: "PUT", path: "/api/news/no-such-id", headers: { cookie } },
  {
    name: "403 cross-site POST /api/news",
    method: "POST",
    path: "/api/news",
    headers: { cookie, origin: "https://evil.example" },
  },
  { name: "401 signed-out POST /api/news", method: "POST", path: "/api/news", headers: {} },
  {
    name: "400 text/plain POST /api/news",
    method: "POST",
    path: "/api/news",
    headers: { cookie },
    contentType: "text/plain",
  },
];

console.log(`${perSize} requests per size; a reset is ECONNRESET, EPIPE or a cut response`);
for (const kind of KINDS) {
  const row: string[] = [];
  for (const size of SIZES) {
    const { body, contentType } = multipartBody(size);
    const headers = { ...kind.headers, "content-type": kind.contentType ?? contentType };
    const statuses = new Map<string, number>();
    let resets = 0;
    let next = 0;
    const worker = async () => {
      while (next < perSize) {
        next += 1;
        const outcome = await sendWholeBody(`${server.url}${kind.path}`, { method: kind.method, headers, body });
        const key = outcome.kind === "complete" ? String(outcome.status) : outcome.code;
        statuses.set(key, (statuses.get(key) ?? 0) + 1);
        if (outcome.kind === "error") resets += 1;
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    row.push(
      `${size / 1024} KB: ${resets}/${perSize} resets (${[...statuses].map(([k, v]) => `${k}×${v}`).join(" ")})`,
    );
  }
  console.log(`${kind.name}\n  ${row.join("\n  ")}`);
}
await server.stop();
