import { sql, type Kysely } from "kysely";
import { momentType, type Engine } from "./engine";

/**
 * A video's poster belongs to a story (decision 036): keyed by the story and the video it was set
 * for, so a poster set on one story never shows on another with the same video. Each existing poster
 * goes to every story that uses its video, now or in a kept revision.
 * And the images an editor removed from the library while only earlier versions used them: those
 * versions show that the image was removed instead of a broken one.
 */
export async function up(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema
    .createTable("story_posters")
    .addColumn("news_id", "text", (c) => c.notNull())
    .addColumn("video_url", "text", (c) => c.notNull())
    .addColumn("poster_url", "text", (c) => c.notNull())
    .addColumn("set_by", "text")
    .addColumn("set_at", momentType(engine, "text"), (c) => c.notNull())
    .addPrimaryKeyConstraint("story_posters_pkey", ["news_id", "video_url"])
    .execute();
  await sql`
    insert into story_posters (news_id, video_url, poster_url, set_by, set_at)
    select uses.news_id, p.video_url, p.poster_url, p.set_by, p.set_at
    from video_posters p
    join (select id as news_id, video from news union select news_id, video from news_revisions) uses on uses.video = p.video_url
  `.execute(db);
  await db.schema.dropTable("video_posters").execute();
  await db.schema.alterTable("story_posters").renameTo("video_posters").execute();
  await db.schema
    .createTable("removed_media")
    .addColumn("url", "text", (c) => c.primaryKey())
    .addColumn("removed_by", "text")
    .addColumn("removed_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
}

/** Back to one poster per video: the one set last. */
export async function down(db: Kysely<unknown>, engine: Engine): Promise<void> {
  await db.schema.dropTable("removed_media").execute();
  await db.schema
    .createTable("video_posters_by_url")
    .addColumn("video_url", "text", (c) => c.primaryKey())
    .addColumn("poster_url", "text", (c) => c.notNull())
    .addColumn("set_by", "text")
    .addColumn("set_at", momentType(engine, "text"), (c) => c.notNull())
    .execute();
  await sql`
    insert into video_posters_by_url (video_url, poster_url, set_by, set_at)
    select p.video_url, p.poster_url, p.set_by, p.set_at from video_posters p
    where not exists (select 1 from video_posters later where later.video_url = p.video_url and (later.set_at > p.set_at or (later.set_at = p.set_at and later.news_id > p.news_id)))
  `.execute(db);
  await db.schema.dropTable("video_posters").execute();
  await db.schema.alterTable("video_posters_by_url").renameTo("video_posters").execute();
}
