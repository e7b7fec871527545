import type { Role } from "~/lib/constants";
import { encodeFirebaseHash, type FirebaseHashConfig } from "~/server/accounts/firebase-scrypt.server";
import { importAccount, type ImportedAccount } from "~/server/accounts/imported-accounts.server";
import type { DB } from "~/server/db/db.server";
import type { MediaStorage } from "~/server/media/storage.server";
import { importArticle } from "~/server/news/imported-articles.server";
import { writeWithEvents } from "~/server/outbox/outbox.server";
import { addSiteVisits } from "~/server/visits/visits.server";
import { parseAuthUser, type FirebaseAuthUser } from "./auth-export.server";
import {
  parseArticle,
  parseLegacyArticle,
  parseShortLink,
  parseSiteStats,
  parseUserData,
  titleKey,
  type FirebaseArticle,
  type FirebaseShortLink,
  type FirebaseUserData,
} from "./firebase-records.server";
import { MalformedExportError, type FirestoreDocument, type FirestoreExport } from "./firestore-export.server";
import { fingerprintOf, readImported, recordImported } from "./import-state.server";
import { copyStorageFile, findStorageFile, storageObjectOf } from "./storage-files.server";

export type ImportSources = {
  firestore: FirestoreExport;
  /** The raw entries of the Auth export's `users` list, or null without --auth. */
  authUsers: unknown[] | null;
  hashConfig: FirebaseHashConfig | null;
  /** The local copy of the Storage bucket, or null without --storage. */
  storageDir: string | null;
};

export type ImportOptions = {
  dryRun: boolean;
  /** Documents written per transaction. */
  batchSize?: number;
  onProgress?: (step: "articles" | "accounts", done: number, total: number) => void;
};

export const REPORT_KINDS = ["articles", "legacy news", "short links", "media", "accounts", "site visits"] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];
export type KindCounts = { created: number; updated: number; unchanged: number; skipped: number };
export type ImportWarning = { kind: ReportKind; id: string; message: string };

export type ImportReport = {
  dryRun: boolean;
  layout: FirestoreExport["layout"];
  counts: Record<ReportKind, KindCounts>;
  warnings: ImportWarning[];
  /** Legacy `news` items that already were articles, and the article each matched. */
  matched: { legacyId: string; articleId: string }[];
};

const KNOWN_COLLECTIONS = ["all-news", "news", "short-links", "users", "visits"];

type Run = { db: DB; storage: MediaStorage; sources: ImportSources; options: ImportOptions; report: ImportReport };

function newReport(dryRun: boolean, layout: FirestoreExport["layout"]): ImportReport {
  const counts = Object.fromEntries(REPORT_KINDS.map((kind) => [kind, { created: 0, updated: 0, unchanged: 0, skipped: 0 }])) as Record<ReportKind, KindCounts>;
  return { dryRun, layout, counts, warnings: [], matched: [] };
}

function warn(run: Run, kind: ReportKind, id: string, message: string, skipped = true): void {
  run.report.warnings.push({ kind, id, message });
  if (skipped) run.report.counts[kind].skipped++;
}

function collection(sources: ImportSources, name: string): [string, FirestoreDocument][] {
  return [...(sources.firestore.collections.get(name) ?? new Map<string, FirestoreDocument>()).entries()];
}

/**
 * What would stop the import before anything is written: an export with none of the original's
 * collections, password hashes without the project's hash parameters.
 */
export function checkSources(sources: ImportSources): void {
  if (!KNOWN_COLLECTIONS.some((name) => sources.firestore.collections.has(name))) {
    throw new MalformedExportError(`The Firestore export holds none of the collections ${KNOWN_COLLECTIONS.join(", ")}.`);
  }
  const hashed = sources.authUsers?.some((raw) => typeof (raw as { passwordHash?: unknown })?.passwordHash === "string");
  if (hashed && !sources.hashConfig) {
    throw new MalformedExportError("The Auth export holds password hashes: give the project's hash parameters with --hash-config.");
  }
}

/**
 * Imports a Firebase project (issue 19): articles with their ids, legacy `news` items that are not
 * already articles, short links with their short ids, media copied from the local bucket, site visits,
 * accounts with their passwords. Safe to repeat: what an earlier run imported unchanged is left alone.
 * Each batch of documents is one transaction; a dry run reads and counts but writes nothing.
 */
export async function importFirebase(db: DB, storage: MediaStorage, sources: ImportSources, options: ImportOptions): Promise<ImportReport> {
  checkSources(sources);
  const run: Run = { db, storage, sources, options, report: newReport(options.dryRun, sources.firestore.layout) };
  await importArticles(run);
  await importSiteVisits(run);
  if (sources.authUsers) await importAccounts(run, sources.authUsers);
  return run.report;
}

function inBatches<T>(items: T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

// ---------- articles, legacy news, short links, media ----------

type PlannedArticle = { kind: "articles" | "legacy news"; record: FirebaseArticle; links: FirebaseShortLink[]; fingerprint: string };

function parsedArticles(run: Run): PlannedArticle[] {
  const planned: PlannedArticle[] = [];
  for (const [id, doc] of collection(run.sources, "all-news")) {
    const warnings: string[] = [];
    const parsed = parseArticle(id, doc, warnings);
    if (!parsed.ok) warn(run, "articles", id, `malformed, skipped: ${parsed.problem}`);
    else planned.push({ kind: "articles", record: parsed.value, links: [], fingerprint: "" });
    for (const warning of warnings) warn(run, "articles", id, warning, false);
  }
  const byTitle = new Map(planned.map((article) => [titleKey(article.record.title), article.record.id]));
  const ids = new Set(planned.map((article) => article.record.id));
  for (const [id, doc] of collection(run.sources, "news")) {
    const parsed = parseLegacyArticle(id, doc);
    if (!parsed.ok) {
      warn(run, "legacy news", id, `malformed, skipped: ${parsed.problem}`);
      continue;
    }
    const match = ids.has(id) ? id : byTitle.get(titleKey(parsed.value.title));
    if (match) run.report.matched.push({ legacyId: id, articleId: match });
    else planned.push({ kind: "legacy news", record: parsed.value, links: [], fingerprint: "" });
  }
  return planned;
}

function attachShortLinks(run: Run, planned: PlannedArticle[]): void {
  const byId = new Map(planned.map((article) => [article.record.id, article]));
  for (const [docId, doc] of collection(run.sources, "short-links")) {
    const parsed = parseShortLink(doc);
    if (!parsed.ok) warn(run, "short links", docId, `malformed, skipped: ${parsed.problem}`);
    else if (!byId.has(parsed.value.newsId)) warn(run, "short links", docId, `points to /news/${parsed.value.newsId}, which the export does not hold: skipped`);
    else byId.get(parsed.value.newsId)!.links.push(parsed.value);
  }
  for (const article of planned) {
    // One short link per article here: the oldest is kept, any other reported.
    article.links.sort((a, b) => (a.createdAt?.getTime() ?? 0) - (b.createdAt?.getTime() ?? 0));
    for (const extra of article.links.slice(1)) warn(run, "short links", extra.shortId, `a second short link of /news/${article.record.id}: skipped (${article.links[0]!.shortId} is kept)`);
    article.links = article.links.slice(0, 1);
  }
}

function mediaUrlsOf(record: FirebaseArticle): string[] {
  return [...record.images, ...(record.imageUrl ? [record.imageUrl] : []), ...(record.video ? [record.video] : [])];
}

/** The Storage URLs of the export whose file the local bucket does not hold. */
function missingMedia(run: Run, urls: string[]): string[] {
  return urls.filter((url) => {
    const object = storageObjectOf(url);
    return object !== null && (!run.sources.storageDir || !findStorageFile(run.sources.storageDir, object));
  });
}

async function importArticles(run: Run): Promise<void> {
  const planned = parsedArticles(run);
  attachShortLinks(run, planned);
  const ids = planned.map((article) => article.record.id);
  for (const article of planned) {
    // A file that was missing and is now in the bucket changes the fingerprint: the next run copies it.
    article.fingerprint = fingerprintOf({ record: article.record, links: article.links, missing: missingMedia(run, mediaUrlsOf(article.record)) });
  }
  const imported = await readImported(run.db, "article", ids);
  const existing = new Set<string>();
  for (const batch of inBatches(ids, 500)) {
    for (const row of await run.db.selectFrom("news").select("id").where("id", "in", batch).execute()) existing.add(row.id);
  }
  const toWrite: PlannedArticle[] = [];
  for (const article of planned) {
    if (!existing.has(article.record.id) && imported.has(article.record.id)) {
      warn(run, article.kind, article.record.id, "imported before and deleted here since: left out");
    } else if (imported.get(article.record.id)?.fingerprint === article.fingerprint) {
      run.report.counts[article.kind].unchanged++;
      run.report.counts["short links"].unchanged += article.links.length;
      for (const url of missingMedia(run, mediaUrlsOf(article.record))) warnMissingFile(run, article.record.id, url);
    } else toWrite.push(article);
  }
  const storedMedia = await readImported(run.db, "media", [...new Set(toWrite.flatMap((article) => mediaUrlsOf(article.record)))]);
  const mediaOf = new Map([...storedMedia].map(([url, { target }]) => [url, target!]));
  let done = planned.length - toWrite.length;
  run.options.onProgress?.("articles", done, planned.length);
  for (const batch of inBatches(toWrite, run.options.batchSize ?? 25)) {
    const copied = new Map<string, string>();
    for (const article of batch) await copyMedia(run, article, mediaOf, copied);
    if (!run.options.dryRun) await writeArticles(run, batch, mediaOf, copied);
    else for (const article of batch) await countDryRun(run, article, existing);
    done += batch.length;
    run.options.onProgress?.("articles", done, planned.length);
  }
}

function warnMissingFile(run: Run, articleId: string, url: string): void {
  const where = run.sources.storageDir ? `no file ${storageObjectOf(url)?.objectPath} in the Storage copy` : "no --storage folder given";
  warn(run, "media", articleId, `${url}: ${where}; the URL is kept`);
}

/** Copies the article's Storage files not copied before; a missing file keeps its URL and is reported. */
async function copyMedia(run: Run, article: PlannedArticle, mediaOf: Map<string, string>, copied: Map<string, string>): Promise<void> {
  for (const url of mediaUrlsOf(article.record)) {
    const object = storageObjectOf(url);
    if (!object) continue;
    if (mediaOf.has(url) || copied.has(url)) {
      if (mediaOf.has(url)) run.report.counts.media.unchanged++;
      continue;
    }
    const file = run.sources.storageDir ? findStorageFile(run.sources.storageDir, object) : null;
    if (!file) {
      warnMissingFile(run, article.record.id, url);
      continue;
    }
    if (run.options.dryRun) {
      copied.set(url, url);
      run.report.counts.media.created++;
      continue;
    }
    try {
      copied.set(url, await copyStorageFile(run.storage, file, object));
      run.report.counts.media.created++;
    } catch (error) {
      warn(run, "media", article.record.id, `${url}: ${(error as Error).message}; the URL is kept`);
    }
  }
}

async function countDryRun(run: Run, article: PlannedArticle, existing: Set<string>): Promise<void> {
  run.report.counts[article.kind][existing.has(article.record.id) ? "updated" : "created"]++;
  for (const link of article.links) {
    const holder = await run.db.selectFrom("short_links").select("news_id").where("short_id", "=", link.shortId).executeTakeFirst();
    if (!holder) run.report.counts["short links"].created++;
    else if (holder.news_id === article.record.id) run.report.counts["short links"].unchanged++;
    else warn(run, "short links", link.shortId, `already used here by /news/${holder.news_id}: skipped`);
  }
}

async function writeArticles(run: Run, batch: PlannedArticle[], mediaOf: Map<string, string>, copied: Map<string, string>): Promise<void> {
  const local = (url: string) => mediaOf.get(url) ?? copied.get(url) ?? url;
  const outcomes = await writeWithEvents(run.db, async (trx) => {
    const results = [];
    for (const { record, links, fingerprint } of batch) {
      const before = await trx.selectFrom("short_links").select("short_id").where("news_id", "=", record.id).execute();
      const result = await importArticle(trx, {
        ...record,
        images: record.images.map(local),
        imageUrl: record.imageUrl && local(record.imageUrl),
        video: record.video && local(record.video),
        status: record.published ? "published" : "draft",
        createdAt: record.createdAt.toISOString(),
        updatedAt: record.updatedAt?.toISOString() ?? null,
        shortLinks: links.map((link) => ({ shortId: link.shortId, createdAt: (link.createdAt ?? record.createdAt).toISOString() })),
      });
      await recordImported(trx, "article", record.id, fingerprint);
      results.push({ result, links, hadBefore: new Set(before.map((row) => row.short_id)) });
    }
    for (const [url, target] of copied) await recordImported(trx, "media", url, url, target);
    return results;
  });
  for (const [index, { result, links, hadBefore }] of outcomes.entries()) {
    const article = batch[index]!;
    run.report.counts[article.kind][result.outcome]++;
    for (const link of links) {
      if (result.refusedShortIds.includes(link.shortId)) warn(run, "short links", link.shortId, `already used here by another article: /news/${article.record.id} keeps its own`);
      else run.report.counts["short links"][hadBefore.has(link.shortId) ? "unchanged" : "created"]++;
    }
  }
  for (const [url, target] of copied) mediaOf.set(url, target);
}

// ---------- site visits ----------

async function importSiteVisits(run: Run): Promise<void> {
  const doc = run.sources.firestore.collections.get("visits")?.get("siteStats");
  if (!doc) return;
  const parsed = parseSiteStats(doc);
  if (!parsed.ok) return warn(run, "site visits", "visits/siteStats", `malformed, skipped: ${parsed.problem}`);
  // The visits an earlier run added are replaced, not added again.
  const before = Number((await readImported(run.db, "site-visits", ["siteStats"])).get("siteStats")?.target ?? 0);
  const change = parsed.value - before;
  const counts = run.report.counts["site visits"];
  if (change === 0) return void counts.unchanged++;
  counts[before === 0 ? "created" : "updated"]++;
  if (run.options.dryRun) return;
  await run.db.transaction().execute(async (trx) => {
    await addSiteVisits(trx, change);
    await recordImported(trx, "site-visits", "siteStats", String(parsed.value), String(parsed.value));
  });
}

// ---------- accounts ----------

type PlannedAccount = { account: ImportedAccount; fingerprint: string };

function plannedAccount(run: Run, user: FirebaseAuthUser, data: FirebaseUserData | undefined): PlannedAccount {
  const config = run.sources.hashConfig;
  const role: Role = data?.role ?? "user";
  if (data?.unknownRole) warn(run, "accounts", user.uid, `unknown role "${data.unknownRole}": imported as user`, false);
  if (!user.password) warn(run, "accounts", user.uid, `${user.email} has no password hash (Google sign-in or the like): imported without a password; give it one with npm run user -- set-password ${user.email}`, false);
  const account: ImportedAccount = {
    id: user.uid,
    email: user.email,
    username: data?.username ?? user.displayName ?? user.email.split("@")[0]!,
    role,
    emailVerified: user.emailVerified,
    createdAt: (user.createdAt ?? new Date(0)).toISOString(),
    legacyPassword: user.password && config ? encodeFirebaseHash(user.password.hash, user.password.salt, config) : null,
  };
  return { account, fingerprint: fingerprintOf(account) };
}

async function importAccounts(run: Run, authUsers: unknown[]): Promise<void> {
  const userData = new Map<string, FirebaseUserData>();
  for (const [uid, doc] of collection(run.sources, "users")) {
    const parsed = parseUserData(doc);
    if (parsed.ok) userData.set(uid, parsed.value);
    else warn(run, "accounts", uid, `users/${uid} is malformed (${parsed.problem}): the account gets no username or role from it`, false);
  }
  const planned: PlannedAccount[] = [];
  for (const raw of authUsers) {
    const parsed = parseAuthUser(raw);
    if (!parsed.ok) warn(run, "accounts", parsed.uid, `malformed, skipped: ${parsed.problem}`);
    else planned.push(plannedAccount(run, parsed.value, userData.get(parsed.value.uid)));
  }
  const inAuth = new Set(planned.map((p) => p.account.id));
  for (const uid of userData.keys()) if (!inAuth.has(uid)) warn(run, "accounts", uid, `users/${uid} has no account in the Auth export: skipped`);
  const imported = await readImported(run.db, "account", [...inAuth]);
  const toWrite = planned.filter((p) => imported.get(p.account.id)?.fingerprint !== p.fingerprint);
  run.report.counts.accounts.unchanged += planned.length - toWrite.length;
  let done = planned.length - toWrite.length;
  run.options.onProgress?.("accounts", done, planned.length);
  for (const batch of inBatches(toWrite, run.options.batchSize ?? 25)) {
    if (run.options.dryRun) for (const { account } of batch) run.report.counts.accounts[imported.has(account.id) ? "updated" : "created"]++;
    else {
      const outcomes = await run.db.transaction().execute(async (trx) => {
        const results: Awaited<ReturnType<typeof importAccount>>[] = [];
        for (const { account, fingerprint } of batch) {
          const outcome = await importAccount(trx, account);
          if (outcome !== "email-taken") await recordImported(trx, "account", account.id, fingerprint);
          results.push(outcome);
        }
        return results;
      });
      for (const [index, outcome] of outcomes.entries()) {
        const { account } = batch[index]!;
        if (outcome === "email-taken") warn(run, "accounts", account.id, `${account.email} already belongs to another account here: skipped`);
        else run.report.counts.accounts[outcome]++;
      }
    }
    done += batch.length;
    run.options.onProgress?.("accounts", done, planned.length);
  }
}
