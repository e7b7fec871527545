/**
 * The reference workload of `npm run budget`, in a process of its own: a bare node:http server that
 * builds the same page from the same data for every request, in plain JavaScript (escaping, string
 * building, JSON), about as much work as one of our pages, so its CPU per request moves with the
 * machine's speed and its other load as a page's does. It must never change: every budget is a
 * multiple of it. Usage: scripts/bench/reference.ts <port>; prints "ready" when listening.
 */
import http from "node:http";

const ITEMS = Array.from({ length: 150 }, (_, i) => ({
  id: `item-${i}`,
  title: `عنوان الخبر رقم ${i} عن "طرابلس" & الميناء <${i % 7}>`,
  summary: "نص قصير يصف الخبر ويكرر بعض الكلمات العربية لكي يكون بطول فقرة حقيقية. ".repeat(3),
  tags: [`وسم ${i % 11}`, `وسم ${i % 13}`],
  visits: (i * 7919) % 5000,
}));
const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };
const escape = (text: string) => text.replace(/[&<>"]/g, (c) => ESCAPES[c]!);

function page(): string {
  let html = '<!doctype html><html lang="ar" dir="rtl"><body><main>';
  for (const item of [...ITEMS].sort((a, b) => b.visits - a.visits))
    html += `<article id="${item.id}"><h2>${escape(item.title)}</h2><p>${escape(item.summary)}</p><ul>${item.tags.map((t) => `<li>${escape(t)}</li>`).join("")}</ul></article>`;
  const data = JSON.stringify(JSON.parse(JSON.stringify(ITEMS.slice(0, 100))));
  return `${html}</main><script type="application/json">${escape(data)}</script></body></html>`;
}

const [port] = process.argv.slice(2);
const server = http.createServer((_req, res) => {
  const body = Buffer.from(page());
  res.writeHead(200, { "content-type": "text/html; charset=utf-8", "content-length": body.length });
  res.end(body);
});
server.listen(Number(port), "127.0.0.1", () => console.log("ready"));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
