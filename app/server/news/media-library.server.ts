import { sql } from "kysely";
import { MAX_IMAGES } from "~/lib/article-schema";
import { detailsOf, IMAGE_DETAIL_MAX, type ImageDetails, type ImageDetailsMap } from "~/lib/image-details";
import { parseStringList } from "~/lib/json";
import type { NewsStatus } from "~/lib/news";
import {
  focalPointOf,
  inCurrentUse,
  LIBRARY_PAGE_SIZE,
  type FocalPoint,
  type LibraryEntry,
  type LibraryFilter,
  type LibraryImage,
  type MediaUse,
} from "~/lib/media-library";
import { messages } from "~/lib/messages";
import { imageDetailMessages, mediaLibraryMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { canReadArticle, isEditor, isNewsroomMember, type Actor } from "~/lib/permissions";
import { documentImages, storedBody } from "~/lib/rich-text/document";
import type { DB } from "~/server/db/db.server";
import { containsPattern } from "~/server/db/like.server";
import { MAX_IMAGE_BYTES, type StoredImage } from "~/server/media/media.server";
import { MULTIPART_FRAMING_BYTES, type Submission, type UploadLimits } from "~/server/http/multipart-form.server";
import { recordSiteEvent } from "~/server/outbox/outbox.server";
import { AppError } from "~/server/platform/app-error.server";
import { removeMedia, storeUploads } from "./article-media.server";
import type { Newsroom } from "./newsroom.server";

/*
 * The media library (decision 036): every stored article image has a row, written when it is stored;
 * a story takes one by its URL. An image stays in the library when stories stop using it, until an
 * editor deletes it; one in use by a story (in the trash or not) cannot be. One only kept revisions
 * use can: they then show that it was removed (`removed_media`).
 */

type Row = {
  url: string;
  uploaded_by: string | null;
  created_at: string;
  width: number | null;
  height: number | null;
  alt: string;
  caption: string;
  credit: string;
  focal_x: number | null;
  focal_y: number | null;
};

const STORED_IMAGE = /^\/media\/news-images\/[A-Za-z0-9_-]+\.webp$/;

/** Records newly stored images, by `by` at `at`, with the details they were first given; a URL already there keeps its row. */
export async function recordLibraryImages(
  db: DB,
  images: readonly StoredImage[],
  by: string | null,
  at: Date,
  details: ImageDetailsMap = {},
): Promise<void> {
  if (images.length === 0) return;
  const rows = images.map(({ url, width, height }) => ({
    url,
    uploaded_by: by,
    created_at: at.toISOString(),
    width,
    height,
    ...detailsOf(details, url),
  }));
  await db
    .insertInto("media")
    .values(rows)
    .onConflict((oc) => oc.column("url").doNothing())
    .execute();
}

/** A story's details for its images become the library's defaults for those the library has none for. */
export async function describeLibraryImages(db: DB, details: ImageDetailsMap): Promise<void> {
  for (const [url, { alt, caption, credit }] of Object.entries(details)) {
    if (!STORED_IMAGE.test(url) || !(alt || caption || credit)) continue;
    await db
      .updateTable("media")
      .set({ alt, caption, credit })
      .where("url", "=", url)
      .where("alt", "=", "")
      .where("caption", "=", "")
      .where("credit", "=", "")
      .execute();
  }
}

/** Forgets the rows of images whose files a refused request removed again. */
export async function forgetLibraryImages(db: DB, urls: readonly string[]): Promise<void> {
  if (urls.length === 0) return;
  await db
    .deleteFrom("media")
    .where("url", "in", [...urls])
    .execute();
}

/** The URLs among `urls` the library holds. */
export async function libraryHolds(db: DB, urls: readonly string[]): Promise<Set<string>> {
  const wanted = urls.filter((url) => STORED_IMAGE.test(url));
  if (wanted.length === 0) return new Set();
  const rows = await db.selectFrom("media").select("url").where("url", "in", wanted).execute();
  return new Set(rows.map((row) => row.url));
}

/** Every URL the library holds, for the sweep at start: they are kept whether a story uses them or not. */
function imageOf(row: Row & { uploader: string | null }): LibraryImage {
  return {
    url: row.url,
    uploader: row.uploader,
    createdAt: row.created_at,
    width: row.width,
    height: row.height,
    alt: row.alt,
    caption: row.caption,
    credit: row.credit,
    focal: row.focal_x === null || row.focal_y === null ? null : { x: Number(row.focal_x), y: Number(row.focal_y) },
  };
}

const quoted = (url: string) => containsPattern(JSON.stringify(url));

/**
 * Where each of `urls` is used: stories (cover, gallery, text, their video's poster), their live
 * coverage's updates, then kept revisions of stories that no longer use it. With a `viewer`, only
 * stories that person may read (canReadArticle); without, every story, for the library's own checks.
 */
export async function usesOf(db: DB, urls: readonly string[], viewer?: Actor): Promise<Map<string, MediaUse[]>> {
  const uses = new Map<string, MediaUse[]>(urls.map((url) => [url, []]));
  if (urls.length === 0) return uses;
  const readable = (story: { author_id: string | null; status: string }) =>
    !viewer || canReadArticle(viewer, { authorId: story.author_id, status: story.status as NewsStatus });
  const anyOf = (column: string) =>
    sql<boolean>`(${sql.join(
      urls.map((url) => sql`${sql.ref(column)} like ${quoted(url)} escape '\\'`),
      sql` or `,
    )})`;
  const articles = await db
    .selectFrom("news")
    .select(["id", "title", "images", "image_url", "body", "author_id", "status"])
    .where((eb) => eb.or([anyOf("news.images"), anyOf("news.body"), eb("image_url", "in", [...urls])]))
    .orderBy("created_at", "desc")
    .execute();
  for (const article of articles.filter(readable)) {
    const images = parseStringList(article.images);
    const inBody = article.body ? documentImages(storedBody(article.body, "")) : [];
    for (const url of urls) {
      const as =
        images[0] === url || article.image_url === url
          ? "cover"
          : images.includes(url)
            ? "gallery"
            : inBody.includes(url)
              ? "body"
              : null;
      if (as) uses.get(url)!.push({ id: article.id, title: article.title, as });
    }
  }
  const posters = await db
    .selectFrom("video_posters")
    .innerJoin("news", (join) =>
      join.onRef("news.id", "=", "video_posters.news_id").onRef("news.video", "=", "video_posters.video_url"),
    )
    .select(["news.id", "news.title", "news.author_id", "news.status", "video_posters.poster_url"])
    .where("video_posters.poster_url", "in", [...urls])
    .execute();
  for (const poster of posters.filter(readable))
    uses.get(poster.poster_url)?.push({ id: poster.id, title: poster.title, as: "poster" });
  const updates = await db
    .selectFrom("live_updates")
    .innerJoin("news", "news.id", "live_updates.news_id")
    .select(["news.id", "news.title", "news.author_id", "news.status", "live_updates.body"])
    .where(anyOf("live_updates.body"))
    .execute();
  for (const update of updates.filter(readable)) {
    for (const url of urls) {
      const list = uses.get(url)!;
      if (
        update.body.includes(JSON.stringify(url)) &&
        !list.some((use) => use.id === update.id && use.as === "live-update")
      )
        list.push({ id: update.id, title: update.title, as: "live-update" });
    }
  }
  const revisions = await db
    .selectFrom("news_revisions")
    .innerJoin("news", "news.id", "news_revisions.news_id")
    .select(["news.id", "news.title", "news.author_id", "news.status", "news_revisions.images", "news_revisions.body"])
    .where((eb) => eb.or([anyOf("news_revisions.images"), anyOf("news_revisions.body")]))
    .execute();
  for (const revision of revisions.filter(readable)) {
    const named = `${revision.images} ${revision.body ?? ""}`;
    for (const url of urls) {
      const list = uses.get(url)!;
      if (named.includes(JSON.stringify(url)) && !list.some((use) => use.id === revision.id))
        list.push({ id: revision.id, title: revision.title, as: "revision" });
    }
  }
  return uses;
}

function libraryQuery(db: DB, filter: LibraryFilter) {
  return db
    .selectFrom("media")
    .leftJoin("user", "user.id", "media.uploaded_by")
    .$if(filter.q !== "", (query) =>
      query.where(
        sql<boolean>`(lower(media.caption) like lower(${containsPattern(filter.q)}) escape '\\' or lower(media.credit) like lower(${containsPattern(filter.q)}) escape '\\' or lower(media.alt) like lower(${containsPattern(filter.q)}) escape '\\')`,
      ),
    )
    .$if(filter.uploader !== "", (query) =>
      query.where(
        sql<boolean>`lower(${sql.ref("user.name")}) like lower(${containsPattern(filter.uploader)}) escape '\\'`,
      ),
    )
    .$if(filter.from !== null, (query) => query.where("media.created_at", ">=", `${filter.from}T00:00:00.000Z`))
    .$if(filter.to !== null, (query) =>
      query.where(
        "media.created_at",
        "<",
        new Date(Date.parse(`${filter.to}T00:00:00.000Z`) + 86_400_000).toISOString(),
      ),
    );
}

/** One page of the library, newest first, with where each image is used in stories `viewer` may read; `hasMore` when another page follows. */
export async function searchLibrary(
  db: DB,
  viewer: Actor,
  filter: LibraryFilter,
  page = 1,
): Promise<{ images: LibraryEntry[]; hasMore: boolean }> {
  const rows = await libraryQuery(db, filter)
    .selectAll("media")
    .select("user.name as uploader")
    .orderBy("media.created_at", "desc")
    .orderBy("media.url")
    .limit(LIBRARY_PAGE_SIZE + 1)
    .offset((page - 1) * LIBRARY_PAGE_SIZE)
    .execute();
  const images = rows.slice(0, LIBRARY_PAGE_SIZE).map(imageOf);
  const uses = await usesOf(
    db,
    images.map((image) => image.url),
    viewer,
  );
  return {
    images: images.map((image) => ({ ...image, uses: uses.get(image.url) ?? [] })),
    hasMore: rows.length > LIBRARY_PAGE_SIZE,
  };
}

const notInLibrary = () => new AppError("not-found", { message: mediaLibraryMessages.notFound });

async function requireRow(db: DB, url: string): Promise<void> {
  const row = await db.selectFrom("media").select("url").where("url", "=", url).executeTakeFirst();
  if (!row) throw notInLibrary();
}

/** The alt text, caption and credit stories get when they take the image; newsroom members set them. */
export async function setLibraryDetails(db: DB, actor: Actor, url: string, details: ImageDetails): Promise<void> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
  await requireRow(db, url);
  await db
    .updateTable("media")
    .set({ alt: details.alt, caption: details.caption, credit: details.credit })
    .where("url", "=", url)
    .execute();
}

/** The point every crop of the image keeps in frame (null: the centre again); readers' pages change with it, on every instance. */
export async function setFocalPoint(db: DB, actor: Actor, url: string, focal: FocalPoint | null): Promise<void> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
  await requireRow(db, url);
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable("media")
      .set({ focal_x: focal?.x ?? null, focal_y: focal?.y ?? null })
      .where("url", "=", url)
      .execute();
    await recordSiteEvent(trx, "media-changed");
  });
}

/**
 * An editor's delete of an image no story uses: its row, then its files (best effort, as every media
 * removal). One in use by a story is refused with a 409 naming the reason; nothing changes. One only
 * kept revisions use is recorded as removed, so they show that it was.
 */
export async function deleteLibraryImage({ db, storage, clock }: Newsroom, actor: Actor, url: string): Promise<void> {
  if (!isEditor(actor)) throw new AppError("forbidden", { message: mediaLibraryMessages.deleteNotAllowed });
  await requireRow(db, url);
  const uses = (await usesOf(db, [url])).get(url) ?? [];
  if (inCurrentUse(uses)) throw new AppError("conflict", { message: mediaLibraryMessages.inUse });
  await db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom("media").where("url", "=", url).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) throw notInLibrary();
    if (uses.length > 0)
      await trx
        .insertInto("removed_media")
        .values({ url, removed_by: actor.id, removed_at: clock.now().toISOString() })
        .execute();
  });
  await removeMedia(storage, [url]);
}

const STORED_IMAGES_IN_TEXT = /\/media\/news-images\/[A-Za-z0-9_-]+\.webp/g;

/** The stored images named anywhere in `value` (a version, a comparison) that an editor removed from the library. */
export async function removedImagesIn(db: DB, value: unknown): Promise<string[]> {
  const named = [...new Set(JSON.stringify(value ?? null).match(STORED_IMAGES_IN_TEXT) ?? [])];
  if (named.length === 0) return [];
  return (await db.selectFrom("removed_media").select("url").where("url", "in", named).execute()).map((row) => row.url);
}

/** What one upload on the library's page may hold: up to MAX_IMAGES pictures as `images`, each as a story's. */
export const LIBRARY_UPLOAD_LIMITS: UploadLimits = {
  files: { images: { maxBytes: MAX_IMAGE_BYTES, tooLarge: newsroomMessages.imageTooLarge } },
  maxFiles: MAX_IMAGES,
  maxFields: 1,
  tooMany: { images: mediaLibraryMessages.uploadTooMany },
  maxFieldBytes: 100,
  fieldTooLong: {},
  maxBodyBytes: MAX_IMAGES * MAX_IMAGE_BYTES + MULTIPART_FRAMING_BYTES,
};

/**
 * Pictures uploaded straight into the library by a newsroom member: checked and stored as a story's
 * uploads are (storeUploads), each a row of the library, or none at all. Returns their URLs.
 */
export async function uploadLibraryImages(
  { db, storage, clock }: Newsroom,
  actor: Actor,
  submission: Submission,
): Promise<string[]> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
  const files = submission.files.filter((file) => file.field === "images");
  if (files.length === 0)
    throw new AppError("validation", {
      message: mediaLibraryMessages.uploadNone,
      fields: { images: mediaLibraryMessages.uploadNone },
    });
  const { images } = await storeUploads(storage, files);
  const urls = images.map((image) => image.url);
  try {
    await recordLibraryImages(db, images, actor.id, clock.now());
  } catch (error) {
    await removeMedia(storage, urls);
    throw error;
  }
  return urls;
}

/** The focal points of the stored images among `urls` that have one. */
export async function focalPointsOf(db: DB, urls: readonly string[]): Promise<Map<string, FocalPoint>> {
  const wanted = [...new Set(urls.filter((url) => STORED_IMAGE.test(url)))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom("media")
    .select(["url", "focal_x", "focal_y"])
    .where("url", "in", wanted)
    .where("focal_x", "is not", null)
    .execute();
  return new Map(rows.map((row) => [row.url, { x: Number(row.focal_x), y: Number(row.focal_y) }]));
}

const URL_MAX = 500;
const TOO_LONG = {
  alt: imageDetailMessages.altTooLong,
  caption: imageDetailMessages.captionTooLong,
  credit: imageDetailMessages.creditTooLong,
} as const;
const refusedAction = (message: string = mediaLibraryMessages.actionInvalid) => new AppError("validation", { message });

/**
 * The library page's one change, from its form's fields: `details` (alt, caption, credit), `focus`
 * (x and y in 0–1, or neither: the centre) or `delete`. Returns what to tell the person.
 */
export async function changeLibraryImage(
  newsroom: Newsroom,
  actor: Actor,
  fields: Record<string, string>,
): Promise<string> {
  const withNul = Object.keys(fields).find((name) => fields[name]!.includes("\0"));
  if (withNul)
    throw new AppError("validation", { message: messages.textHasNul, fields: { [withNul]: messages.textHasNul } });
  const { intent, url } = fields;
  if (!url || url.length > URL_MAX) throw refusedAction();
  if (intent === "details") {
    const details = { alt: fields.alt ?? "", caption: fields.caption ?? "", credit: fields.credit ?? "" };
    for (const key of ["alt", "caption", "credit"] as const) {
      if (details[key].length > IMAGE_DETAIL_MAX)
        throw new AppError("validation", { message: TOO_LONG[key], fields: { [key]: TOO_LONG[key] } });
      details[key] = details[key].trim();
    }
    await setLibraryDetails(newsroom.db, actor, url, details);
    return mediaLibraryMessages.detailsSaved;
  }
  if (intent === "focus") {
    const reset = fields.x === undefined && fields.y === undefined;
    const focal = reset ? null : focalPointOf(fields.x, fields.y);
    if (!reset && !focal) throw refusedAction(mediaLibraryMessages.focalInvalid);
    await setFocalPoint(newsroom.db, actor, url, focal);
    return mediaLibraryMessages.focalSaved;
  }
  if (intent === "delete") {
    await deleteLibraryImage(newsroom, actor, url);
    return mediaLibraryMessages.deleted;
  }
  throw refusedAction();
}
