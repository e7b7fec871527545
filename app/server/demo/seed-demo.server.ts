import sharp from "sharp";
import type { Auth } from "~/server/accounts/auth-instance.server";
import type { DB } from "../db/db.server";
import { storeSizedImage, type StoredImage } from "~/server/media/media.server";
import { recordLibraryImages } from "~/server/news/media-library.server";
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

export async function isEmpty(db: DB): Promise<boolean> {
  const row = await db.selectFrom("news").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const users = await db.selectFrom("user").select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
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
      const png = await sharp(Buffer.from(demoSceneSvg(article.category, imageSeed))).png().toBuffer();
      images.push(await storeSizedImage(storage, png, `demo-${article.category}-${imageSeed}.png`));
      imageSeed++;
    }
    const createdAt = new Date(now.getTime() - article.hoursAgo * HOUR_MS);
    await recordLibraryImages(db, images, null, createdAt);
    await createArticle(db, {
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
  }
  await writeSiteSettings(db, demoSettings, null, now);
  const password = generatePassword();
  await createAccount(auth, db, { email: DEMO_ADMIN_EMAIL, username: "مدير الموقع", password, role: "admin" });
  return { email: DEMO_ADMIN_EMAIL, password, articles: demoArticles.length };
}
