import sharp from "sharp";
import { CATEGORIES } from "~/lib/categories";
import { openDatabase } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import { demoArticles } from "~/server/demo/demo-articles";
import { demoSceneSvg } from "~/server/demo/demo-images.server";
import { localStorage } from "~/server/media/local-storage.server";
import { storeImage } from "~/server/media/media.server";
import { createArticle } from "~/server/news/articles-write.server";

const PER_CATEGORY = 6;
/** The widest date the site prints (a two-digit day and hour in Beirut, the longest month name), so a page's weight does not depend on when it is measured. */
const WIDEST_DATE = Date.parse("2025-11-30T20:59:00Z");

/**
 * A site with every list full, for measuring the heaviest pages readers get: every category with
 * PER_CATEGORY articles written from the demo texts, each with its own stored image (WebP variants),
 * visits for the most-read list, breaking titles for the ticker. Returns an article whose category,
 * related list, picks and sidebars are all full. Articles are dated a minute apart, back from WIDEST_DATE.
 */
export async function seedFullSite(env: { DATABASE_URL: string; MEDIA_DIR: string }): Promise<{ articleId: string }> {
  const db = openDatabase(env.DATABASE_URL);
  try {
    await migrateToLatest(db);
    const storage = localStorage(env.MEDIA_DIR);
    let articleId = "";
    let n = 0;
    for (let round = 0; round < PER_CATEGORY; round++) {
      for (const category of CATEGORIES) {
        const source = demoArticles.filter((a) => a.category === category)[round] ?? demoArticles[n % demoArticles.length]!;
        const png = await sharp(Buffer.from(demoSceneSvg(category, n + 1, 1200, 675))).png().toBuffer();
        const image = await storeImage(storage, png, `full-site-${n}.png`);
        const created = await createArticle(db, {
          title: source.title,
          content: source.paragraphs.join("\n\n"),
          category,
          images: [image],
          visits: (n * 7919) % 5000,
          createdAt: new Date(WIDEST_DATE - n * 60_000),
        });
        if (category === "local" && round === 1) articleId = created.id;
        n++;
      }
    }
    return { articleId };
  } finally {
    await db.destroy();
  }
}
