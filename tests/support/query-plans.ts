import { readFileSync, statSync } from "node:fs";
import SQLite from "better-sqlite3";
import pg from "pg";

/** A statement as harness/query-log.mjs recorded it from the server's database driver. */
export type LoggedQuery = { sql: string; parameters: unknown[] };

/** The statements appended to `file` since it was `from` bytes long (logLength). */
export function queriesSince(file: string, from: number): LoggedQuery[] {
  return readFileSync(file)
    .subarray(from)
    .toString("utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as LoggedQuery);
}

export function logLength(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** What one statement cost, as its engine tells it: rows it read from tables and indexes (null where it tells none), and what it returned. */
export type QueryCost = { rowsVisited: number | null; rowsReturned: number; problems: string[]; plan: string };

type PlanNode = {
  "Node Type": string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Actual Rows": number;
  "Actual Loops": number;
  "Rows Removed by Filter"?: number;
  "Rows Removed by Index Recheck"?: number;
  Plans?: PlanNode[];
};

/** Nodes that read rows of a table or an index (a bitmap's index scan is counted by its heap scan). */
const TABLE_SCANS = new Set(["Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan", "Tid Scan"]);

/**
 * The rows a plan's scans of `tables` visited: those they returned and those their filters removed, over
 * every loop (PostgreSQL reports both per loop).
 */
function rowsVisited(node: PlanNode, tables: readonly string[]): number {
  const perLoop =
    node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0) + (node["Rows Removed by Index Recheck"] ?? 0);
  const counted = TABLE_SCANS.has(node["Node Type"]) && tables.includes(node["Relation Name"] ?? "");
  return (
    (counted ? perLoop * node["Actual Loops"] : 0) +
    (node.Plans ?? []).reduce((sum, child) => sum + rowsVisited(child, tables), 0)
  );
}

function planLines(node: PlanNode, depth = 0): string[] {
  const on = node["Relation Name"]
    ? ` on ${node["Relation Name"]}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}`
    : "";
  const removed = node["Rows Removed by Filter"] ? `, removed ${node["Rows Removed by Filter"]}` : "";
  const line = `${"  ".repeat(depth)}${node["Node Type"]}${on} (rows ${node["Actual Rows"]} × ${node["Actual Loops"]}${removed})`;
  return [line, ...(node.Plans ?? []).flatMap((child) => planLines(child, depth + 1))];
}

/** Runs `query` under EXPLAIN ANALYZE on PostgreSQL (with its parameters bound, as the server runs it); counts the rows of `tables` it visited. */
export async function postgresCost(
  client: pg.Client,
  query: LoggedQuery,
  tables: readonly string[],
): Promise<QueryCost> {
  const { rows } = await client.query<{ "QUERY PLAN": [{ Plan: PlanNode }] }>(
    `explain (analyze, format json) ${query.sql}`,
    query.parameters,
  );
  const plan = rows[0]!["QUERY PLAN"][0].Plan;
  return {
    rowsVisited: rowsVisited(plan, tables),
    rowsReturned: plan["Actual Rows"],
    problems: [],
    plan: planLines(plan).join("\n"),
  };
}

type SqlitePlanRow = { id: number; parent: number; detail: string };

/**
 * SQLite tells no row counts (better-sqlite3 is built without scan status): its plan is read instead,
 * its loops in order (`loops`). Problems: a full scan of one of `tables` (or a walk of a whole index of
 * one), and a sort of all the rows of a loop over one of them that only the status bounds.
 */
export function sqliteCost(
  database: SQLite.Database,
  query: LoggedQuery,
  tables: readonly string[],
): QueryCost & { loops: string[] } {
  const parameters = query.parameters;
  const details = (database.prepare(`explain query plan ${query.sql}`).all(...parameters) as SqlitePlanRow[]).map(
    (row) => row.detail,
  );
  const rowsReturned = database.prepare(query.sql).all(...parameters).length;
  const loops = details.filter((detail) => /^(SCAN|SEARCH) /.test(detail));
  const ofArchive = (detail: string) =>
    !detail.includes("VIRTUAL TABLE") && tables.includes(/^(?:SCAN|SEARCH) (\w+)/.exec(detail)?.[1] ?? "");
  const problems = loops.filter((detail) => ofArchive(detail) && detail.startsWith("SCAN "));
  const everyPublished = loops.find((detail) => ofArchive(detail) && /\(status=\?\)$/.test(detail));
  if (details.includes("USE TEMP B-TREE FOR ORDER BY") && everyPublished)
    problems.push(`sorts every row of ${everyPublished}`);
  return { rowsVisited: null, rowsReturned, problems, loops, plan: details.join("\n") };
}
