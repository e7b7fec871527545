import sharp from "sharp";
import { CATEGORIES } from "~/lib/categories";
import { openDatabase } from "~/server/db/db.server";
import { migrateToLatest } from "~/server/data/migrate.server";
import { demoArticles } from "~/server/demo/demo-articles";
import { demoSceneSvg } from "~/server/demo/demo-images.server";
import { localStorage } from "~/server/media/local-storage.server";
import { storeImage } from "~/server/media/media.server";
import { createArticle } from "~/server/news/articles-write.server";
import { openCoverage, postLiveUpdate } from "~/server/coverage/coverage-write.server";
import { systemClock } from "~/server/platform/clock.server";

const PER_CATEGORY = 6;
/** The widest date the site prints (a two-digit day and hour in Beirut, the longest month name), so a page's weight does not depend on when it is measured. */
const WIDEST_DATE = Date.parse("2025-11-30T20:59:00Z");

/** The full site's article, a story covered live (updates with an embed) and a story with a YouTube video. */
export type FullSite = { articleId: string; liveId: string; videoId: string };

const LIVE_UPDATES = [
  "بدأ فرز الأصوات في أقلام القلمون.",
  "النتائج الأولية في الميناء تظهر تقدماً للائحة الأولى.",
  "وصلت صناديق البداوي إلى مركز الفرز.",
];
const desk = { id: "full-site-desk", name: "مكتب التغطية", email: "desk@example.com", role: "editor" as const };
const paragraph = (text: string) => ({ type: "paragraph", content: [{ type: "text", text }] });

/**
 * A site with every list full, for measuring the heaviest pages readers get: every category with
 * PER_CATEGORY articles written from the demo texts, each with its own stored image (WebP variants),
 * visits for the most-read list, breaking titles for the ticker. Returns an article whose category,
 * related list, picks and sidebars are all full, a story covered live and one with a video. Articles are
 * dated a minute apart, back from WIDEST_DATE.
 */
export async function seedFullSite(env: { DATABASE_URL: string; MEDIA_DIR: string }): Promise<FullSite> {
  const db = openDatabase(env.DATABASE_URL);
  try {
    await migrateToLatest(db);
    const storage = localStorage(env.MEDIA_DIR);
    let articleId = "";
    let liveId = "";
    let videoId = "";
    let n = 0;
    for (let round = 0; round < PER_CATEGORY; round++) {
      for (const category of CATEGORIES) {
        const source =
          demoArticles.filter((a) => a.category === category)[round] ?? demoArticles[n % demoArticles.length]!;
        const png = await sharp(Buffer.from(demoSceneSvg(category, n + 1, 1200, 675)))
          .png()
          .toBuffer();
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
        if (category === "local" && round === 2) liveId = created.id;
        if (category === "international" && round === 2) videoId = created.id;
        n++;
      }
    }
    await db
      .updateTable("news")
      .set({ video: "https://www.youtube.com/watch?v=dQw4w9WgXcQ", is_video: 1 })
      .where("id", "=", videoId)
      .execute();
    const writer = { db, clock: systemClock };
    await openCoverage(writer, desk, liveId);
    for (const [i, text] of LIVE_UPDATES.entries()) {
      const content =
        i === 1
          ? [paragraph(text), { type: "embed", attrs: { provider: "x", id: "1790000000000000000" } }]
          : [paragraph(text)];
      await postLiveUpdate(writer, desk, liveId, { body: JSON.stringify({ type: "doc", content }) });
    }
    return { articleId, liveId, videoId };
  } finally {
    await db.destroy();
  }
}
