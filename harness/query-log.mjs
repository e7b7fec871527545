// Loaded into a test server (node --import): appends every statement its database drivers run, with
// its parameters, to QUERY_LOG_FILE as one JSON line each, for a test to read back and EXPLAIN.
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";

const file = process.env.QUERY_LOG_FILE;
const require = createRequire(import.meta.url);

function record(sql, parameters) {
  appendFileSync(
    file,
    `${JSON.stringify({ sql, parameters: parameters ?? [] }, (_, value) => (typeof value === "bigint" ? Number(value) : value))}\n`,
  );
}

if (file) {
  const SQLite = require("better-sqlite3");
  const statement = Object.getPrototypeOf(new SQLite(":memory:").prepare("select 1"));
  for (const method of ["all", "get", "run", "iterate"]) {
    const original = statement[method];
    statement[method] = function (...parameters) {
      record(this.source, parameters.length === 1 && Array.isArray(parameters[0]) ? parameters[0] : parameters);
      return original.apply(this, parameters);
    };
  }
  const pg = require("pg");
  const query = pg.Client.prototype.query;
  pg.Client.prototype.query = function (text, values, ...rest) {
    if (typeof text === "string") record(text, Array.isArray(values) ? values : []);
    else if (text && typeof text.text === "string") record(text.text, text.values ?? []);
    return query.call(this, text, values, ...rest);
  };
}
