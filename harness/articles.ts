import type { DB } from "~/server/db/db.server";
import {
  createArticle,
  type ArticleChanges,
  type CreatedArticle,
  type NewArticle,
} from "~/server/news/articles-write.server";
import { pngBytes } from "./fixtures";
import { articlePath, wirePath } from "~/lib/news";
import { callApi, type ApiAnswer, type Session } from "./http-client";

/**
 * Writes an article straight into `db` as the site does (row, short link and search entry in one
 * transaction); a test names only what matters to it. A running server's page cache does not see
 * it: write before the pages are first read, or publish over HTTP with publishArticle. A breaking
 * story made here sends no Web Push alert unless `silent: false` asks for one.
 */
export function createTestArticle(db: DB, article: Partial<NewArticle> = {}): Promise<CreatedArticle> {
  return createArticle(db, { title: "خبر للاختبار", content: "نص الخبر", category: "local", silent: true, ...article });
}

/** The story's version as its row holds it now: the base a test's save of it names (decision 034). */
export async function storedVersion(db: DB, id: string): Promise<number> {
  const { version } = await db.selectFrom("news").select("version").where("id", "=", id).executeTakeFirstOrThrow();
  return Number(version);
}

/** The version `GET /api/news/{id}` gives `session` on the server at `url`, as a client reads it before a save. */
export async function fetchedVersion(url: string, session: { cookie: string }, id: string): Promise<number> {
  const response = await fetch(`${url}/api/news/${encodeURIComponent(id)}`, { headers: { cookie: session.cookie } });
  if (!response.ok) throw new Error(`reading ${id} gave ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { version: number }).version;
}

/** `form` saved on `version`: its `baseVersion` set, the form itself returned. */
export function basedOn(version: number, form: FormData): FormData {
  form.set("baseVersion", String(version));
  return form;
}

/**
 * PUTs the article form to `/api/news/{id}` as a client of the API saves: based on the version GET gave
 * it just before, unless the form names its own `baseVersion`.
 */
export async function putArticle(
  url: string,
  session: Session,
  id: string,
  form: FormData,
  headers: Record<string, string> = {},
): Promise<{ status: number; json: ApiAnswer }> {
  if (!form.has("baseVersion")) basedOn(await fetchedVersion(url, session, id), form);
  return callApi(`${url}/api/news/${encodeURIComponent(id)}`, "PUT", form, session, headers);
}

/** A whole edit for `updateArticle`: a published local story with no media, and what the test names. */
export const articleChanges = (overrides: Partial<ArticleChanges>): ArticleChanges => ({
  title: "عنوان",
  content: "نص",
  category: "local",
  status: "published",
  imageUrl: null,
  images: [],
  video: null,
  ...overrides,
});

/** The moment `articleAt`'s minutes count from. */
export const ARTICLE_CLOCK_START = new Date("2026-11-01T10:00:00Z").getTime();

/**
 * An article written `minutes` after ARTICLE_CLOCK_START (so tests order articles by their number),
 * titled "خبر {minutes}" unless `overrides` say otherwise; its id.
 */
export async function articleAt(db: DB, minutes: number, overrides: Partial<NewArticle> = {}): Promise<string> {
  const created = await createTestArticle(db, {
    title: `خبر ${minutes}`,
    content: `نص الخبر رقم ${minutes}`,
    createdAt: new Date(ARTICLE_CLOCK_START + minutes * 60_000),
    ...overrides,
  });
  return created.id;
}

type Article = { title: string; content?: string; category?: string; image?: { width: number; height: number } };

/**
 * Publishes through the admin API of the server at `url` as the signed-in `cookie`, and returns
 * the new article's id. `origin` is the site's BASE_URL when it differs from `url`.
 */
export async function publishArticle(
  url: string,
  session: { cookie: string; origin?: string },
  { title, content = "نص الخبر", category = "local", image }: Article,
): Promise<string> {
  const images = image
    ? [{ field: "images", name: "photo.png", bytes: await pngBytes(image.width, image.height) }]
    : [];
  const form = publishForm(title, { content, category }, images);
  const response = await fetch(`${url}/api/news`, {
    method: "POST",
    body: form,
    headers: { cookie: session.cookie, origin: session.origin ?? url },
  });
  if (response.status !== 201)
    throw new Error(`publishing "${title}" gave ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/** Deletes through the admin API, as the dashboard does (media, search entry and cached pages go with it). */
export async function deletePublishedArticle(
  url: string,
  session: { cookie: string; origin?: string },
  id: string,
): Promise<void> {
  const response = await fetch(`${url}/api/news/${id}`, {
    method: "DELETE",
    headers: { cookie: session.cookie, origin: session.origin ?? url },
  });
  if (!response.ok) throw new Error(`deleting ${id} gave ${response.status}: ${await response.text()}`);
}

export type UploadedFile = { field: string; name: string; bytes: Uint8Array; type?: string };

/** A multipart article form: text fields, then files. */
export function articleForm(fields: Record<string, string>, files: UploadedFile[] = []): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  for (const file of files)
    data.append(
      file.field,
      new Blob([new Uint8Array(file.bytes)], { type: file.type ?? "application/octet-stream" }),
      file.name,
    );
  return data;
}

/** The admin form publishing `title` as a local article; `fields` change or add fields. */
export function publishForm(title: string, fields: Record<string, string> = {}, files: UploadedFile[] = []): FormData {
  return articleForm({ title, content: "نص", category: "local", status: "published", ...fields }, files);
}

/** An article's canonical address as it goes on the wire (decision 033): `/news/{id}/{slug}` percent-encoded, or `/news/{id}` while it has no slug. */
export async function canonicalPath(db: DB, id: string): Promise<string> {
  const { slug } = await db.selectFrom("news").select("slug").where("id", "=", id).executeTakeFirstOrThrow();
  return wirePath(articlePath(id, slug));
}
