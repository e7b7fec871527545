/**
 * Measures how the real server keeps media: same-name concurrent publishes, double submissions,
 * `kill -9` during a large publish, and a full disk. Needs a build (`npm run build`) and root (mount).
 *
 *   npx tsx scripts/probe-media.ts [same-name] [double-submit] [kill] [disk-full]   (default: all)
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import sharp from "sharp";
import { openDatabase } from "../app/server/db/db.server";
import { parseStringList } from "../app/lib/json";
import { signedInAs } from "../tests/support/accounts";
import { articleForm, type UploadedFile } from "../tests/support/articles";
import { mp4Bytes, pngBytes } from "../tests/support/fixtures";
import { mountSmallDisk } from "../tests/support/small-disk";
import { startTestServer, type TestServer } from "../tests/support/test-server";

const ARTICLE = { title: "خبر للقياس", content: "نص الخبر.", category: "local", status: "published" };

type Site = { server: TestServer; cookie: string; stop: () => Promise<void> };

async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const server = await startTestServer(env);
  const db = openDatabase(server.env.DATABASE_URL);
  const account = { email: `probe-${Date.now()}@example.com`, username: "قياس", role: "admin" as const };
  const cookie = await signedInAs(db, { baseUrl: server.url, authSecret: server.env.AUTH_SECRET }, account);
  await db.destroy();
  return { server, cookie, stop: () => server.stop() };
}

async function publish(site: Site, fields: Record<string, string>, files: UploadedFile[], signal?: AbortSignal) {
  const response = await fetch(`${site.server.url}/api/news`, {
    method: "POST",
    body: articleForm({ ...ARTICLE, ...fields }, files),
    headers: { cookie: site.cookie },
    signal,
  });
  return { status: response.status, json: (await response.json()) as { id?: string; errors?: Record<string, string> } };
}

function articleMedia(databaseUrl: string, id: string): { image: string | undefined; video: string | null } {
  const db = new Database(databaseUrl, { readonly: true });
  const row = db.prepare("select images, video from news where id = ?").get(id) as { images: string; video: string | null };
  db.close();
  return { image: parseStringList(row.images)[0], video: row.video };
}

const imageOf = async (width: number): Promise<UploadedFile> => ({ field: "images", name: "صورة.jpg", bytes: await pngBytes(width, 100) });
const videoOf = (size: number): UploadedFile => ({ field: "video", name: "فيديو.mp4", bytes: mp4Bytes(size), type: "video/mp4" });

async function servedWidth(site: Site, url: string | undefined): Promise<number | null> {
  const response = await fetch(`${site.server.url}${url}`);
  if (response.status !== 200) return null;
  return (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width ?? null;
}

async function servedSize(site: Site, url: string | null): Promise<number | null> {
  const response = await fetch(`${site.server.url}${url}`);
  return response.status === 200 ? (await response.arrayBuffer()).byteLength : null;
}

/** 100 pairs; each pair publishes at once, both with an image "صورة.jpg" and a video "فيديو.mp4" of their own. */
async function sameName(pairs = 100) {
  const site = await startSite();
  let shared = 0;
  let wrongPicture = 0;
  let videoLost = 0;
  for (let pair = 0; pair < pairs; pair++) {
    const members = await Promise.all(
      [0, 1].map(async (member) => {
        const n = pair * 2 + member;
        const { json } = await publish(site, { title: `خبر ${n}` }, [await imageOf(200 + n), videoOf(5_000 + n)]);
        return { id: json.id!, n, ...articleMedia(site.server.env.DATABASE_URL, json.id!) };
      }),
    );
    const [a, b] = members as [(typeof members)[0], (typeof members)[0]];
    if (a.image === b.image || a.video === b.video) shared++;
    for (const m of members) if ((await servedWidth(site, m.image)) !== 200 + m.n) wrongPicture++;
    await fetch(`${site.server.url}/api/news/${a.id}`, { method: "DELETE", headers: { cookie: site.cookie } });
    if ((await servedSize(site, b.video)) !== 5_000 + b.n) videoLost++;
  }
  await site.stop();
  return { pairs, pairsSharingAFile: shared, articlesShowingAnotherPicture: wrongPicture, pairsWhereDeletingOneLostTheOthersVideo: videoLost };
}

/** 30 forms, each sent twice at once with the same submissionId. */
async function doubleSubmit(forms = 30) {
  const site = await startSite();
  let acceptedMediaDeleted = 0;
  let statuses: Record<string, number> = {};
  for (let i = 0; i < forms; i++) {
    const fields = { title: `إرسال مزدوج ${i}`, submissionId: `5d1c1a52-0000-4000-8000-${String(i).padStart(12, "0")}` };
    const files = [await imageOf(300), videoOf(6_000)];
    const answers = await Promise.all([publish(site, fields, files), publish(site, fields, files)]);
    for (const a of answers) statuses = { ...statuses, [a.status]: (statuses[a.status] ?? 0) + 1 };
    const accepted = answers.find((a) => a.status === 201);
    if (!accepted) continue;
    const media = articleMedia(site.server.env.DATABASE_URL, accepted.json.id!);
    if ((await servedWidth(site, media.image)) === null || (await servedSize(site, media.video)) === null) acceptedMediaDeleted++;
  }
  await site.stop();
  return { forms, statuses, acceptedArticlesWhoseMediaWasDeleted: acceptedMediaDeleted };
}

function mediaState(databaseUrl: string, mediaDir: string) {
  const db = new Database(databaseUrl, { readonly: true });
  const integrity = (db.prepare("pragma integrity_check").get() as { integrity_check: string }).integrity_check;
  const rows = db.prepare("select images, image_url, video from news").all() as { images: string; image_url: string | null; video: string | null }[];
  db.close();
  const referenced = new Set(
    rows.flatMap((r) => [...parseStringList(r.images), r.image_url, r.video]).flatMap((url) => {
      if (!url) return [];
      const name = url.replace(/^\/media\//, "");
      return name.endsWith(".webp") ? [name, ...[400, 800, 1200].map((w) => name.replace(/\.webp$/, `-${w}w.webp`))] : [name];
    }),
  );
  const stored = ["news-images", "news-videos"].flatMap((folder) =>
    existsSync(path.join(mediaDir, folder)) ? readdirSync(path.join(mediaDir, folder)).map((f) => `${folder}/${f}`) : [],
  );
  return {
    articles: rows.length,
    integrity,
    orphanFiles: stored.filter((f) => !referenced.has(f)).length,
    stagedBytes: stagedBytes(mediaDir),
  };
}

function stagedBytes(mediaDir: string): number {
  const staging = path.join(mediaDir, ".staging");
  if (!existsSync(staging)) return 0;
  return readdirSync(staging, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + (existsSync(path.join(e.parentPath, e.name)) ? statSync(path.join(e.parentPath, e.name)).size : 0), 0);
}

const storedCount = (mediaDir: string) =>
  ["news-images", "news-videos"].reduce((n, f) => n + (existsSync(path.join(mediaDir, f)) ? readdirSync(path.join(mediaDir, f)).length : 0), 0);

/** Resolves once `ready()` holds, looking every few milliseconds. */
async function until(ready: () => boolean): Promise<void> {
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 2));
}

/**
 * 10 times: a server over the same data, a ~14 MB publish (an image and a 14 MB video), and `kill -9`
 * at a random point of it: while the upload is being staged (a random number of bytes in), or just
 * as its media is being stored.
 */
async function killDuringPublish(rounds = 10) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "akhbar-probe-kill-"));
  const env = { DATABASE_URL: path.join(dataDir, "akhbar.db"), MEDIA_DIR: path.join(dataDir, "media") };
  const files = [await imageOf(1200), { ...videoOf(14 * 1024 * 1024), name: "clip.mp4" }];
  let site = await startSite(env);
  const cookie = site.cookie;
  await site.stop();
  const killedAt: string[] = [];
  for (let round = 0; round < rounds; round++) {
    const server = await startTestServer(env);
    site = { server, cookie, stop: () => server.stop() };
    const stored = storedCount(env.MEDIA_DIR);
    const staged = stagedBytes(env.MEDIA_DIR); // what earlier rounds left
    const answer = publish(site, { title: `خبر ${round}` }, files).catch(() => null);
    const target = Math.random() * 16 * 1024 * 1024;
    if (target < 14 * 1024 * 1024) await until(() => stagedBytes(env.MEDIA_DIR) - staged >= target);
    else await until(() => storedCount(env.MEDIA_DIR) > stored);
    process.kill(server.pid, "SIGKILL");
    killedAt.push(target < 14 * 1024 * 1024 ? `${(target / 1024 / 1024).toFixed(1)} MB staged` : "storing");
    await answer;
    await server.stop();
  }
  const afterKills = mediaState(env.DATABASE_URL, env.MEDIA_DIR);
  const next = await startTestServer(env);
  await next.stop();
  const afterNextStart = mediaState(env.DATABASE_URL, env.MEDIA_DIR);
  // A start more than an hour after the crashes: leftovers are old enough to be orphans for certain.
  const anHourAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
  for (const folder of ["news-images", "news-videos"]) {
    for (const f of existsSync(path.join(env.MEDIA_DIR, folder)) ? readdirSync(path.join(env.MEDIA_DIR, folder)) : []) {
      utimesSync(path.join(env.MEDIA_DIR, folder, f), anHourAgo, anHourAgo);
    }
  }
  const later = await startTestServer(env);
  await later.stop();
  const afterStartAnHourLater = mediaState(env.DATABASE_URL, env.MEDIA_DIR);
  rmSync(dataDir, { recursive: true, force: true });
  return { rounds, killedAt, afterKills, afterNextStart, afterStartAnHourLater };
}

/** A 5 MB video to a media folder on a 2 MB disk. */
async function diskFull(patienceMs = 30_000) {
  const disk = mountSmallDisk(2 * 1024 * 1024);
  try {
    const site = await startSite({ MEDIA_DIR: disk.dir });
    const started = Date.now();
    const answer = await publish(site, {}, [{ field: "video", name: "clip.mp4", bytes: mp4Bytes(5 * 1024 * 1024), type: "video/mp4" }], AbortSignal.timeout(patienceMs)).catch(
      () => null,
    );
    const seconds = (Date.now() - started) / 1000;
    const staging = path.join(disk.dir, ".staging");
    const leftovers = existsSync(staging)
      ? readdirSync(staging, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => statSync(path.join(e.parentPath, e.name)).size)
      : [];
    await site.stop();
    return {
      answer: answer ? { status: answer.status, errors: answer.json.errors } : `none after ${patienceMs / 1000} s`,
      seconds,
      stagedFilesLeft: leftovers.length,
      stagedBytesLeft: leftovers.reduce((a, b) => a + b, 0),
    };
  } finally {
    disk.remove();
  }
}

const probes: Record<string, () => Promise<unknown>> = {
  "same-name": sameName,
  "double-submit": doubleSubmit,
  kill: killDuringPublish,
  "disk-full": diskFull,
};
const chosen = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(probes);
for (const name of chosen) {
  const probe = probes[name];
  if (!probe) throw new Error(`unknown probe ${name}; one of ${Object.keys(probes).join(", ")}`);
  console.log(name, JSON.stringify(await probe(), null, 2));
}
