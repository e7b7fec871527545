import { sql } from "kysely";
import type { Category } from "~/lib/categories";
import type { CoverageChange } from "~/lib/live-coverage";
import type { NewsStatus } from "~/lib/news";
import { afterWritesOf, type AfterWrite, type DB } from "~/server/db/db.server";
import { executeCompiledOnce } from "~/server/db/compiled-once.server";
import { dialectName } from "~/server/db/dialect.server";

/*
 * The transactional outbox (docs/decisions/010-outbox.md). Every change readers can see writes one
 * `events` row in the change's own transaction; every server process follows the table
 * (follower.server.ts) and empties its page cache and feeds its live streams from it.
 */

/** What readers could see of an article: enough for every consumer to judge what a change did. */
export type ArticleState = {
  id: string;
  title: string;
  createdAt: string;
  /** Absent in events recorded before migration 008 (publish times). */
  publishedAt?: string | null;
  /** The readable address's slug (articlePath); absent in older events, whose links take the 301. */
  slug?: string | null;
  category: Category;
  status: NewsStatus;
};

export type ArticleEventKind =
  "article-created" | "article-edited" | "article-published" | "article-unpublished" | "article-deleted";
/**
 * A change that is no one article's: the site's own settings (every page's frame, the feeds, the
 * information pages), the front page editors chose (slider, category pins), topics renamed or merged,
 * an author's page.
 */
export type SiteEventKind =
  "settings-changed" | "front-page-changed" | "topics-changed" | "profile-changed" | "media-changed";

/**
 * Someone opened an article's edit form, still has it open (a heartbeat) or left it (decision 034):
 * a notice to every process's presence map, not a change of content.
 */
export type PresenceNotice = { userId: string; name: string; tab: string; state: "open" | "leave" };
export const PRESENCE_KIND = "editing-presence";

/** A change to a story's live coverage (decision 040): what its readers' streams tell. */
export const COVERAGE_KIND = "live-coverage";

export type OutboxEvent = {
  id: number;
  kind: ArticleEventKind | SiteEventKind | typeof PRESENCE_KIND | typeof COVERAGE_KIND;
  articleId: string | null;
  before: ArticleState | null;
  after: ArticleState | null;
  /** Only in a presence notice. */
  presence?: PresenceNotice;
  /** Only in a live coverage change. */
  coverage?: CoverageChange;
  createdAt: string;
};

/** Whether an event changed what pages show: every kind but a presence notice. */
export const changesContent = (event: OutboxEvent) => event.kind !== PRESENCE_KIND;

/** The PostgreSQL channel a committed event is announced on (NOTIFY), so followers need not wait for their next poll. */
export const EVENTS_CHANNEL = "akhbar_events";
/** pg_advisory_xact_lock's key for writing events: see recordArticleEvent. */
const EVENT_WRITE_LOCK = 7_140_015;

function kindOf(before: ArticleState | null, after: ArticleState | null): ArticleEventKind {
  if (!before) return "article-created";
  if (!after) return "article-deleted";
  if (before.status !== "published" && after.status === "published") return "article-published";
  if (before.status === "published" && after.status !== "published") return "article-unpublished";
  return "article-edited";
}

/**
 * Records an article change inside the transaction `trx` that makes it: the row commits or rolls back
 * with the change. Call it last in the transaction. On PostgreSQL, ids come from a sequence in the
 * order transactions take them, not the order they commit; a transaction-long lock makes the two the
 * same, so a follower reading `id > last` never skips an id that commits late. The NOTIFY is sent at
 * commit. SQLite runs one write transaction at a time, which gives the same order by itself.
 */
export async function recordArticleEvent(
  trx: DB,
  before: ArticleState | null,
  after: ArticleState | null,
): Promise<void> {
  await recordEvent(trx, kindOf(before, after), after?.id ?? before?.id ?? null, { before, after });
}

/** Records a change that is no one article's inside its transaction, as recordArticleEvent does. */
export async function recordSiteEvent(trx: DB, kind: SiteEventKind): Promise<void> {
  await recordEvent(trx, kind, null, { before: null, after: null });
}

/** Records a presence notice about article `articleId`, as recordArticleEvent does. */
export async function recordPresenceEvent(trx: DB, articleId: string, presence: PresenceNotice): Promise<void> {
  await recordEvent(trx, PRESENCE_KIND, articleId, { before: null, after: null, presence });
}

/** Records a change to article `articleId`'s live coverage, as recordArticleEvent does. */
export async function recordCoverageEvent(trx: DB, articleId: string, coverage: CoverageChange): Promise<void> {
  await recordEvent(trx, COVERAGE_KIND, articleId, { before: null, after: null, coverage });
}

type Payload = {
  before: ArticleState | null;
  after: ArticleState | null;
  presence?: PresenceNotice;
  coverage?: CoverageChange;
};

async function recordEvent(
  trx: DB,
  kind: OutboxEvent["kind"],
  articleId: string | null,
  payload: Payload,
): Promise<void> {
  const postgres = dialectName(trx) === "postgres";
  if (postgres) await sql`select pg_advisory_xact_lock(${EVENT_WRITE_LOCK})`.execute(trx);
  const row = await trx
    .insertInto("events")
    .values({ kind, article_id: articleId, payload: JSON.stringify(payload), created_at: new Date().toISOString() })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (postgres) await sql`select pg_notify(${EVENTS_CHANNEL}, ${String(row.id)})`.execute(trx);
}

type EventRow = { id: number; kind: string; article_id: string | null; payload: string; created_at: string };

function toEvent(row: EventRow): OutboxEvent {
  const { before, after, presence, coverage } = JSON.parse(row.payload) as Payload;
  return {
    id: Number(row.id),
    kind: row.kind as OutboxEvent["kind"],
    articleId: row.article_id,
    before,
    after,
    ...(presence ? { presence } : {}),
    ...(coverage ? { coverage } : {}),
    createdAt: row.created_at,
  };
}

/** Up to `limit` events after `afterId`, oldest first. */
export async function readEventsAfter(db: DB, afterId: number, limit: number): Promise<OutboxEvent[]> {
  const rows = await db.selectFrom("events").selectAll().where("id", ">", afterId).orderBy("id").limit(limit).execute();
  return rows.map(toEvent);
}

/** Up to `limit` events of `kind` about article `articleId` after `afterId`, oldest first. */
export async function readArticleEventsAfter(
  db: DB,
  articleId: string,
  kind: OutboxEvent["kind"],
  afterId: number,
  limit: number,
): Promise<OutboxEvent[]> {
  const rows = await db
    .selectFrom("events")
    .selectAll()
    .where("id", ">", afterId)
    .where("kind", "=", kind)
    .where("article_id", "=", articleId)
    .orderBy("id")
    .limit(limit)
    .execute();
  return rows.map(toEvent);
}

/**
 * The ids of the oldest and the newest event kept; both null when none was ever written. Each is its own
 * subquery: SQLite reads a lone min() or max() from the key's end, but scans the table for both at once.
 */
export async function keptEventIds(db: DB): Promise<{ oldest: number | null; newest: number | null }> {
  const [row] = await executeCompiledOnce(db, "kept event ids", () =>
    db.selectNoFrom((eb) => [
      eb
        .selectFrom("events")
        .select((events) => events.fn.min("id").as("id"))
        .as("oldest"),
      eb
        .selectFrom("events")
        .select((events) => events.fn.max("id").as("id"))
        .as("newest"),
    ]),
  );
  return {
    oldest: row?.oldest == null ? null : Number(row.oldest),
    newest: row?.newest == null ? null : Number(row.newest),
  };
}

export async function newestEventId(db: DB): Promise<number> {
  return (await keptEventIds(db)).newest ?? 0;
}

/**
 * Whether every event after `seen` is still kept, so a reader who saw event `seen` can be told exactly
 * what followed: not when `seen` is in the future (another database, a restored backup) or events after
 * it were pruned. Pruning removes the oldest ids: one who saw the event just before the oldest kept missed none.
 */
export async function keptSince(db: DB, seen: number): Promise<boolean> {
  const { oldest, newest } = await keptEventIds(db);
  if (newest === null ? seen !== 0 : seen > newest) return false;
  return oldest === null || seen >= oldest - 1;
}

/** How long events are kept, and how far below the newest id at most. */
export const EVENT_RETENTION = { ms: 24 * 60 * 60 * 1000, count: 10_000 };

/**
 * Deletes events older than the retention time or `count` ids below the newest, never the newest (it
 * tells a reconnecting reader how far the site has got). Deleting a prefix of ids by a condition is
 * safe for any number of processes to run at once.
 */
export async function pruneEvents(db: DB, now = Date.now(), retention = EVENT_RETENTION): Promise<number> {
  const newest = await newestEventId(db);
  if (newest === 0) return 0;
  const cutoff = new Date(now - retention.ms).toISOString();
  const result = await db
    .deleteFrom("events")
    .where("id", "<", newest)
    .where((eb) => eb.or([eb("id", "<=", newest - retention.count), eb("created_at", "<", cutoff)]))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * A follower of `db` in this process, caught up after each write made here through the same handle
 * (see writeWithEvents). Only a handle openDatabase opened can be followed so.
 */
export function followLocalWrites(db: DB, catchUp: AfterWrite): () => void {
  const afterWrites = afterWritesOf(db);
  if (!afterWrites) throw new TypeError("only a handle openDatabase opened can be followed after its writes");
  afterWrites.add(catchUp);
  return () => void afterWrites.delete(catchUp);
}

/**
 * Runs `work` in a transaction on `db`; once it has committed, waits for this process's followers to
 * read its events, so the writer's own process serves the change as soon as the write returns (other
 * processes hear of it within their follower's delay).
 */
export async function writeWithEvents<T>(db: DB, work: (trx: DB) => Promise<T>): Promise<T> {
  const result = await db.transaction().execute(work);
  await Promise.all([...(afterWritesOf(db) ?? [])].map((catchUp) => catchUp()));
  return result;
}
