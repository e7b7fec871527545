import { sql } from "kysely";
import sharp from "sharp";
import { CATEGORIES } from "../../app/lib/categories";
import { openDatabase } from "../../app/server/db/db.server";
import { migrateToLatest } from "../../app/server/data/migrate.server";
import { demoArticles } from "../../app/server/demo/demo-articles";
import { demoSceneSvg } from "../../app/server/demo/demo-images.server";
import { localStorage } from "../../app/server/media/local-storage.server";
import { storeImage } from "../../app/server/media/media.server";
import { createArticle } from "../../app/server/news/articles-write.server";
import { articlePath, wirePath } from "../../app/lib/news";

/** An article's readable address as a reader's request carries it (`/news/{id}` answers 301 there, decision 033). */
export function benchArticlePath(row: { id: string; slug: string | null }): string {
  return wirePath(articlePath(row.id, row.slug));
}

/** Fills a database with `count` articles made from the demo texts, a third without image. */
export async function seedArticles(env: { DATABASE_URL: string; MEDIA_DIR: string }, count: number): Promise<{ articleId: string; articlePage: string }> {
  const db = openDatabase(env.DATABASE_URL);
  await migrateToLatest(db);
  const images: string[] = [];
  for (let i = 0; i < 12; i++) {
    const png = await sharp(Buffer.from(demoSceneSvg(CATEGORIES[i % CATEGORIES.length]!, i + 1))).png().toBuffer();
    images.push(await storeImage(localStorage(env.MEDIA_DIR), png, `bench-${i}.png`));
  }
  const now = Date.now();
  let articleId = "";
  let articlePage = "";
  for (let i = 0; i < count; i++) {
    const source = demoArticles[i % demoArticles.length]!;
    const created = await createArticle(db, {
      title: `${source.title} (${i})`,
      content: source.paragraphs.join("\n\n"),
      category: source.category,
      images: i % 3 === 0 ? [] : [images[i % images.length]!],
      visits: (i * 7919) % 5000,
      createdAt: new Date(now - i * 60_000),
    });
    if (i === 0) articleId = created.id;
  }
  // The planner statistics a site that has run a while has (PostgreSQL plans blind right after a bulk load).
  await sql`analyze`.execute(db);
  articlePage = benchArticlePath(await db.selectFrom("news").select(["id", "slug"]).where("id", "=", articleId).executeTakeFirstOrThrow());
  await db.destroy();
  return { articleId, articlePage };
}

