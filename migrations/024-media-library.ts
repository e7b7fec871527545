import { sql, type Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * The media library (decision 036): one row per stored article image (its full-size
 * `/media/news-images/….webp` URL), who uploaded it and when, its size when known, the alt text,
 * caption and credit it brings to a story by default, and its focal point (0–1 from the left and
 * the top; NULL: the centre). Backfilled from every article and revision that names a stored image.
 * And each video's poster.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("media")
    .addColumn("url", "text", (c) => c.primaryKey())
    .addColumn("uploaded_by", "text")
    .addColumn("created_at", momentType(engine, "text"), (c) => c.notNull())
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("alt", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("caption", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("credit", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("focal_x", "real")
    .addColumn("focal_y", "real")
    .execute();
  await db.schema.createIndex("media_created_at_idx").on("media").column("created_at").execute();
  // Reader lists look up their covers' focal points among the few images that have one.
  await db.schema
    .createIndex("media_focal_idx")
    .on("media")
    .column("url")
    .where(sql.ref("focal_x"), "is not", null)
    .execute();
  await backfill(db);
  // A video's poster, shown before it plays: an image of the library, by the video's URL (a restore that brings a video back brings its poster).
  await db.schema
    .createTable("video_posters")
    .addColumn("video_url", "text", (c) => c.primaryKey())
    .addColumn("poster_url", "text", (c) => c.notNull())
    .addColumn("set_by", "text")
    .addColumn("set_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
}

const STORED_IMAGE = /\/media\/news-images\/[A-Za-z0-9_-]+\.webp/g;
const VARIANT = /-\d+w\.webp$/;

type Found = { uploaded_by: string | null; created_at: string; alt: string; caption: string; credit: string };
type Source = {
  author_id: string | null;
  created_at: unknown;
  images: string | null;
  body: string | null;
  image_details: string | null;
};

function detailsOf(json: string | null, url: string): Pick<Found, "alt" | "caption" | "credit"> {
  try {
    const entry = json ? (JSON.parse(json) as Record<string, Record<string, unknown> | undefined>)[url] : undefined;
    const text = (value: unknown) => (typeof value === "string" ? value.slice(0, 300) : "");
    return { alt: text(entry?.alt), caption: text(entry?.caption), credit: text(entry?.credit) };
  } catch {
    return { alt: "", caption: "", credit: "" };
  }
}

function momentText(value: unknown): string {
  return value instanceof Date ? value.toISOString() : String(value);
}

/** Articles oldest first: an image's row takes its first article's author and time, and the details it had there. */
async function backfill(db: Kysely<unknown>): Promise<void> {
  const { rows: articles } =
    await sql<Source>`select author_id, created_at, images, body, image_details from news order by created_at, id`.execute(
      db,
    );
  const { rows: revisions } =
    await sql<Source>`select author_id, saved_at as created_at, images, body, image_details from news_revisions order by saved_at, id`.execute(
      db,
    );
  const found = new Map<string, Found>();
  for (const row of [...articles, ...revisions]) {
    const text = `${row.images ?? ""} ${row.body ?? ""}`;
    for (const url of new Set(text.match(STORED_IMAGE) ?? [])) {
      if (VARIANT.test(url) || found.has(url)) continue;
      found.set(url, {
        uploaded_by: row.author_id,
        created_at: momentText(row.created_at),
        ...detailsOf(row.image_details, url),
      });
    }
  }
  const rows = [...found].map(([url, row]) => ({ url, ...row }));
  for (let start = 0; start < rows.length; start += 200) {
    await (db as Kysely<{ media: Record<string, unknown> }>)
      .insertInto("media")
      .values(rows.slice(start, start + 200))
      .execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable("video_posters").execute();
  await db.schema.dropTable("media").execute();
}
