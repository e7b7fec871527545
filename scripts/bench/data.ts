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
import { authorPath } from "../../app/lib/bylines";
import { topicPath, topicSlug } from "../../app/lib/topics";
import { documentFromPlainText } from "../../app/lib/rich-text/document";
import { openCoverage, postLiveUpdate } from "../../app/server/coverage/coverage-write.server";
import { systemClock } from "../../app/server/platform/clock.server";
import type { CurrentUser } from "../../app/server/accounts/guards.server";
import { createTestAccount } from "../../harness/accounts";

/** An article's readable address as a reader's request carries it (`/news/{id}` answers 301 there, decision 033). */
export function benchArticlePath(row: { id: string; slug: string | null }): string {
  return wirePath(articlePath(row.id, row.slug));
}

/** Every tenth article is credited to this author and carries this topic, when seeded `forReaderPages`. */
const BENCH_AUTHOR: CurrentUser = { id: "", name: "bench-author", email: "bench-author@example.com", role: "editor" };
const BENCH_TOPIC = "الانتخابات البلدية";
const LIVE_UPDATES = 20;

/** The address of each reader page whose address depends on the seeded archive. */
export type ReaderPages = { article: string; live: string; author: string; topic: string };

/**
 * Fills a database with `count` articles made from the demo texts, a third without image. `forReaderPages`:
 * every tenth also credited to an author and carrying a topic, and the second article a live story with
 * LIVE_UPDATES updates, so the author, topic and live pages have an archive's worth to list.
 */
export async function seedArticles(
  env: { DATABASE_URL: string; MEDIA_DIR: string },
  count: number,
  { forReaderPages = false } = {},
): Promise<{ articleId: string; articlePage: string; pages?: ReaderPages }> {
  const db = openDatabase(env.DATABASE_URL);
  await migrateToLatest(db);
  const images: string[] = [];
  for (let i = 0; i < 12; i++) {
    const png = await sharp(Buffer.from(demoSceneSvg(CATEGORIES[i % CATEGORIES.length]!, i + 1)))
      .png()
      .toBuffer();
    images.push(await storeImage(localStorage(env.MEDIA_DIR), png, `bench-${i}.png`));
  }
  const author = forReaderPages
    ? {
        ...BENCH_AUTHOR,
        id: await createTestAccount(
          db,
          { baseUrl: "http://127.0.0.1", authSecret: "bench-seed-secret-bench-seed-secret-01" },
          { email: BENCH_AUTHOR.email, username: BENCH_AUTHOR.name, role: BENCH_AUTHOR.role },
        ),
      }
    : undefined;
  const now = Date.now();
  const ids: string[] = [];
  let articleId = "";
  for (let i = 0; i < count; i++) {
    const source = demoArticles[i % demoArticles.length]!;
    const created = await createArticle(db, {
      title: `${source.title} (${i})`,
      content: source.paragraphs.join("\n\n"),
      category: source.category,
      images: i % 3 === 0 ? [] : [images[i % images.length]!],
      visits: (i * 7919) % 5000,
      createdAt: new Date(now - i * 60_000),
      ...(author && i % 10 === 0 ? { authorId: author.id, topics: { names: [BENCH_TOPIC], mayCreate: true } } : {}),
    });
    ids.push(created.id);
    if (i === 0) articleId = created.id;
  }
  const liveId = ids[1];
  if (author && liveId) {
    const writer = { db, clock: systemClock };
    await openCoverage(writer, author, liveId);
    for (let n = 0; n < LIVE_UPDATES; n++)
      await postLiveUpdate(writer, author, liveId, {
        body: JSON.stringify(documentFromPlainText(demoArticles[n % demoArticles.length]!.paragraphs[0]!)),
      });
  }
  // The planner statistics a site that has run a while has (PostgreSQL plans blind right after a bulk load).
  await sql`analyze`.execute(db);
  const pathOf = async (id: string) =>
    benchArticlePath(await db.selectFrom("news").select(["id", "slug"]).where("id", "=", id).executeTakeFirstOrThrow());
  const articlePage = await pathOf(articleId);
  const pages =
    author && liveId
      ? {
          article: articlePage,
          live: await pathOf(liveId),
          author: wirePath(authorPath(author.name)),
          topic: wirePath(topicPath(topicSlug(BENCH_TOPIC))),
        }
      : undefined;
  await db.destroy();
  return { articleId, articlePage, pages };
}
