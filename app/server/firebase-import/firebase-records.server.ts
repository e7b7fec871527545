import { z } from "zod";
import { CATEGORIES, categoryLabel, isCategory, type Category } from "~/lib/categories";
import { isRole, type Role } from "~/lib/constants";
import type { ImportedArticle } from "~/server/news/imported-articles.server";
import type { FirestoreDocument } from "./firestore-export.server";

/*
 * Each Firestore document as the import writes it (docs/import-from-firebase.md#what-it-does): checked whole, so a malformed one is
 * reported and skipped, never half-imported.
 */

export type Parsed<T> = { ok: true; value: T } | { ok: false; problem: string };

const moment = z
  .union([z.date(), z.string().pipe(z.coerce.date()), z.number().transform((ms) => new Date(ms))])
  .refine((date) => !Number.isNaN(date.getTime()), "not a date");
const text = z.string().trim();
const url = z.string().trim();

/** The spellings of each category the original used or might have: the route's, plural forms, the Arabic label. */
const CATEGORY_SPELLINGS = new Map<string, Category>([
  ...CATEGORIES.map((category) => [category, category] as const),
  ...CATEGORIES.map((category) => [categoryLabel(category), category] as const),
  ["educatonal", "educational"],
  ["education", "educational"],
  ["advertisements", "advertisement"],
  ["ads", "advertisement"],
  ["sport", "sports"],
  ["misc", "miscellaneous"],
  ["urgent", "breaking"],
]);

export function categoryOf(spelling: string): Category | null {
  const key = spelling.trim().toLowerCase();
  return isCategory(key) ? key : (CATEGORY_SPELLINGS.get(key) ?? CATEGORY_SPELLINGS.get(spelling.trim()) ?? null);
}

const articleDocument = z.object({
  title: text.min(1),
  content: z.string().default(""),
  category: z.string(),
  images: z.array(url).default([]),
  imageUrl: url.nullish(),
  video: url.nullish(),
  isVideo: z.boolean().optional(),
  visits: z.number().int().nonnegative().default(0),
  createdAt: moment,
  updatedAt: moment.nullish(),
});

/** An article as Firebase kept it: the fields the site imports, with Firebase's dates and published flag. */
export type FirebaseArticle = Omit<ImportedArticle, "status" | "createdAt" | "updatedAt" | "shortLinks"> & {
  published: boolean;
  createdAt: Date;
  updatedAt: Date | null;
};

function problemOf(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join(".") || "document"}: ${issue.message}`).join("; ");
}

/** An `all-news` document; `warnings` gets what was imported with a change (an unknown category). */
export function parseArticle(id: string, doc: FirestoreDocument, warnings: string[]): Parsed<FirebaseArticle> {
  const parsed = articleDocument.safeParse(doc);
  if (!parsed.success) return { ok: false, problem: problemOf(parsed.error) };
  const { category: spelling, ...fields } = parsed.data;
  let category = categoryOf(spelling);
  if (!category) {
    warnings.push(`unknown category "${spelling}", imported as miscellaneous`);
    category = "miscellaneous";
  }
  const video = fields.video || null;
  return {
    ok: true,
    value: {
      id,
      ...fields,
      category,
      imageUrl: fields.imageUrl || null,
      images: fields.images.filter(Boolean),
      video,
      isVideo: fields.isVideo ?? Boolean(video),
      published: true,
      updatedAt: fields.updatedAt ?? null,
    },
  };
}

const legacyDocument = z.object({
  title: text.min(1),
  published: z.boolean().default(false),
  date: moment,
  content: z.string().default(""),
  category: z.string().optional(),
});

/** A legacy `news` document as an article: a draft unless it was published. */
export function parseLegacyArticle(id: string, doc: FirestoreDocument): Parsed<FirebaseArticle> {
  const parsed = legacyDocument.safeParse(doc);
  if (!parsed.success) return { ok: false, problem: problemOf(parsed.error) };
  const { title, published, date, content, category } = parsed.data;
  return {
    ok: true,
    value: {
      id,
      title,
      content,
      category: (category && categoryOf(category)) || "local",
      images: [],
      imageUrl: null,
      video: null,
      isVideo: false,
      visits: 0,
      published,
      createdAt: date,
      updatedAt: null,
    },
  };
}

const shortLinkDocument = z.object({
  shortId: z
    .union([z.string(), z.number().int()])
    .transform(String)
    .pipe(z.string().regex(/^\d{6}$/, "not a 6-digit short id")),
  longUrl: z.string().regex(/\/news\/[^/?#]+/, "not a /news/{id} address"),
  createdAt: moment.optional(),
});

export type FirebaseShortLink = { shortId: string; newsId: string; createdAt: Date | null };

export function parseShortLink(doc: FirestoreDocument): Parsed<FirebaseShortLink> {
  const parsed = shortLinkDocument.safeParse(doc);
  if (!parsed.success) return { ok: false, problem: problemOf(parsed.error) };
  const newsId = decodeURIComponent(/\/news\/([^/?#]+)/.exec(parsed.data.longUrl)![1]!);
  return { ok: true, value: { shortId: parsed.data.shortId, newsId, createdAt: parsed.data.createdAt ?? null } };
}

const siteStatsDocument = z.object({ totalVisits: z.number().int().nonnegative() });

export function parseSiteStats(doc: FirestoreDocument): Parsed<number> {
  const parsed = siteStatsDocument.safeParse(doc);
  return parsed.success
    ? { ok: true, value: parsed.data.totalVisits }
    : { ok: false, problem: problemOf(parsed.error) };
}

const userDocument = z.object({ username: text.optional(), email: z.string().optional(), role: z.string().optional() });

export type FirebaseUserData = { username: string | null; role: Role | null; unknownRole: string | null };

/** A `users` document (keyed by the auth uid): the username and role it adds to the Auth account. */
export function parseUserData(doc: FirestoreDocument): Parsed<FirebaseUserData> {
  const parsed = userDocument.safeParse(doc);
  if (!parsed.success) return { ok: false, problem: problemOf(parsed.error) };
  const role = parsed.data.role?.trim().toLowerCase();
  return {
    ok: true,
    value: {
      username: parsed.data.username || null,
      role: isRole(role) ? role : null,
      unknownRole: role && !isRole(role) ? role : null,
    },
  };
}

/** The title the legacy `news` collection and `all-news` are matched by: spaces and case do not count. */
export function titleKey(title: string): string {
  return title.normalize("NFKC").replace(/\s+/g, " ").trim().toLowerCase();
}
