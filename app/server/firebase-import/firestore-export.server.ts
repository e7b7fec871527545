/*
 * The two JSON layouts people export Firestore to (the official managed export is LevelDB, not JSON):
 * - firestore-export-import: { collection: { docId: { field: value } } }, Timestamps as {_seconds, _nanoseconds};
 * - node-firestore-import-export: { __collections__: { collection: { docId: { …, __collections__ } } } },
 *   values tagged { __datatype__: "timestamp", value: {_seconds, _nanoseconds} }.
 * Both become collections of plain documents with every Timestamp a Date.
 */

export type FirestoreLayout = "firestore-export-import" | "node-firestore-import-export";
export type FirestoreDocument = Record<string, unknown>;
export type FirestoreExport = { layout: FirestoreLayout; collections: Map<string, Map<string, FirestoreDocument>> };

/** A file that is not one of the two layouts: nothing is imported from it. */
export class MalformedExportError extends Error {}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

function timestampOf(value: Record<string, unknown>): Date | null {
  const seconds = value._seconds ?? value.seconds;
  const nanos = value._nanoseconds ?? value.nanoseconds ?? 0;
  const keys = Object.keys(value);
  const onlyTimestamp =
    keys.length === 2 && keys.every((key) => ["_seconds", "_nanoseconds", "seconds", "nanoseconds"].includes(key));
  if (!onlyTimestamp || typeof seconds !== "number" || typeof nanos !== "number") return null;
  return new Date(seconds * 1000 + Math.floor(nanos / 1e6));
}

/** A field's value with Timestamps as Dates, tags removed; other Firestore types (geopoints, references) stay as exported. */
function plainValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plainValue);
  if (!isRecord(value)) return value;
  if (typeof value.__datatype__ === "string") {
    if (value.__datatype__ === "timestamp" && isRecord(value.value)) return timestampOf(value.value) ?? value.value;
    return value.value;
  }
  const timestamp = timestampOf(value);
  if (timestamp) return timestamp;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, plainValue(field)]));
}

function documentOf(raw: Record<string, unknown>): FirestoreDocument {
  const fields = Object.entries(raw).filter(([key]) => key !== "__collections__" && key !== "subCollection");
  return Object.fromEntries(fields.map(([key, value]) => [key, plainValue(value)]));
}

function collectionsOf(raw: Record<string, unknown>, where: string): Map<string, Map<string, FirestoreDocument>> {
  const collections = new Map<string, Map<string, FirestoreDocument>>();
  for (const [name, docs] of Object.entries(raw)) {
    if (!isRecord(docs))
      throw new MalformedExportError(`${where}"${name}" is not a collection (an object of documents keyed by id).`);
    const documents = new Map<string, FirestoreDocument>();
    for (const [id, doc] of Object.entries(docs)) {
      // A document that is not an object is one malformed document, reported later, not a malformed file.
      documents.set(id, isRecord(doc) ? documentOf(doc) : { __malformed__: doc });
    }
    collections.set(name, documents);
  }
  return collections;
}

/** Reads an export's parsed JSON; throws MalformedExportError when it is neither layout. */
export function readFirestoreExport(json: unknown): FirestoreExport {
  if (!isRecord(json)) throw new MalformedExportError("The Firestore export is not a JSON object.");
  if ("__collections__" in json) {
    if (!isRecord(json.__collections__)) throw new MalformedExportError("__collections__ is not an object.");
    return {
      layout: "node-firestore-import-export",
      collections: collectionsOf(json.__collections__, "__collections__."),
    };
  }
  if (Object.keys(json).length === 0) throw new MalformedExportError("The Firestore export holds no collection.");
  return { layout: "firestore-export-import", collections: collectionsOf(json, "") };
}

/** Parses the file's text: a file that is not JSON stops here too. */
export function parseFirestoreExport(text: string): FirestoreExport {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MalformedExportError(`The Firestore export is not valid JSON: ${(error as Error).message}`);
  }
  return readFirestoreExport(json);
}
