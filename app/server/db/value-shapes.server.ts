import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/** SQLite's shape of a value PostgreSQL's driver gives as a Date or a boolean: an ISO string, 0/1. */
function sqliteShape(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "boolean") return value ? 1 : 0;
  return value;
}

function reshapeRow(row: UnknownRow): UnknownRow {
  for (const key in row) row[key] = sqliteShape(row[key]);
  return row;
}

/**
 * Our domain code's handle on PostgreSQL reads values in the shapes SQLite gives (moments as ISO
 * strings, flags as 0/1), so it is engine-blind. Only that handle: the pool keeps the engine's own
 * types, which libraries that know the engine (better-auth) read through `db.withoutPlugins()`.
 */
export const sqliteValueShapes: KyselyPlugin = {
  transformQuery: ({ node }: PluginTransformQueryArgs): RootOperationNode => node,
  transformResult: async ({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => {
    for (const row of result.rows) reshapeRow(row);
    return result;
  },
};
