import sharp from "sharp";
import type { Auth } from "~/server/accounts/auth-instance.server";
import type { DB } from "../db/db.server";
import { storeSizedImage, type StoredImage } from "~/server/media/media.server";
import { recordLibraryImages } from "~/server/news/media-library.server";
import { recordVideoPoster } from "~/server/news/video-posters.server";
import type { Category } from "~/lib/categories";
import type { MediaStorage } from "~/server/media/storage.server";
import { createArticle } from "~/server/news/articles-write.server";
import { createAccount, generatePassword } from "~/server/accounts/users.server";
import { demoArticles } from "./demo-articles";
import { demoSceneSvg } from "./demo-images.server";
import { demoSettings } from "./demo-settings";
import { demoTopicNames } from "./demo-topics";
import { writeSiteSettings } from "~/server/site-settings/site-settings.server";

const DEMO_ADMIN_EMAIL = "admin@akhbar.local";
const HOUR_MS = 3_600_000;
/** Posters draw scenes of their own, apart from the articles' images. */
const POSTER_SEED = 1_000;

const demoPicture = (category: Category, seed: number) =>
  sharp(Buffer.from(demoSceneSvg(category, seed)))
    .png()
    .toBuffer();

export async function isEmpty(db: DB): Promise<boolean> {
  const row = await db
    .selectFrom("news")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  const users = await db
    .selectFrom("user")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n) === 0 && Number(users.n) === 0;
}

/** Fills an empty site with the demo articles, its settings and a demo admin; returns the admin's credentials. */
export async function seedDemoContent(
  db: DB,
  auth: Auth,
  storage: MediaStorage,
  now = new Date(),
): Promise<{ email: string; password: string; articles: number }> {
  let imageSeed = 1;
  for (const article of demoArticles) {
    const images: StoredImage[] = [];
    for (let i = 0; i < article.imageCount; i++) {
      images.push(
        await storeSizedImage(
          storage,
          await demoPicture(article.category, imageSeed),
          `demo-${article.category}-${imageSeed}.png`,
        ),
      );
      imageSeed++;
    }
    // A YouTube video's poster, so the reader sees a picture before choosing to load YouTube.
    const poster = article.videoUrl
      ? await storeSizedImage(
          storage,
          await demoPicture(article.category, POSTER_SEED + imageSeed),
          `demo-poster-${article.category}-${imageSeed}.png`,
        )
      : null;
    const createdAt = new Date(now.getTime() - article.hoursAgo * HOUR_MS);
    await recordLibraryImages(db, poster ? [...images, poster] : images, null, createdAt);
    const created = await createArticle(db, {
      title: article.title,
      content: article.paragraphs.join("\n\n"),
      category: article.category,
      images: images.map((image) => image.url),
      video: article.videoUrl ?? null,
      visits: article.visits,
      createdAt,
      topics: { names: demoTopicNames(article), mayCreate: true },
      silent: true,
    });
    if (article.videoUrl && poster)
      await recordVideoPoster(db, created.id, article.videoUrl, poster.url, null, createdAt);
  }
  await writeSiteSettings(db, demoSettings, null, now);
  const password = generatePassword();
  await createAccount(auth, db, { email: DEMO_ADMIN_EMAIL, username: "مدير الموقع", password, role: "admin" });
  return { email: DEMO_ADMIN_EMAIL, password, articles: demoArticles.length };
}
