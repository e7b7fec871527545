import { parseImageDetails } from "~/lib/image-details";
import { parseStringList } from "~/lib/json";
import { documentImages, storedBody } from "~/lib/rich-text/document";
import { revisionMessages } from "~/lib/newsroom-messages";
import {
  compareVersions,
  type Comparison,
  type StoryVersion,
  type VersionEntry,
  type VersionRef,
} from "~/lib/story-version";
import { AppError } from "~/server/platform/app-error.server";
import type { DB } from "~/server/db/db.server";
import { topicsOfArticle } from "./topics.server";
import { STORY_COLUMNS, storyOfRow } from "./story-fields.server";

/* The versions of a story the history lists and the compare screen reads: the live one and each kept revision. */

/** `current` or a revision id, from a URL's text; null for anything else. */
export function parseVersionRef(raw: string | null | undefined): VersionRef | null {
  if (raw === "current") return "current";
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}

const VERSION_COLUMNS = [
  "title",
  "content",
  "body",
  "category",
  "byline",
  "images",
  "image_url",
  "image_details",
  "video",
  ...STORY_COLUMNS,
] as const;

type VersionRow = {
  title: string;
  content: string;
  body: string | null;
  category: string;
  byline: string | null;
  images: string;
  image_url: string | null;
  image_details: string | null;
  video: string | null;
  standfirst: string | null;
  slug: string | null;
  share_title: string | null;
  share_description: string | null;
  share_image: string | null;
  noindex: number;
};

function versionOfRow(row: VersionRow, topics: string[] | null): StoryVersion {
  const images = parseStringList(row.images);
  const story = storyOfRow(row);
  return {
    title: row.title,
    standfirst: story.standfirst,
    text: row.content,
    category: row.category,
    byline: row.byline,
    topics,
    slug: story.slug,
    shareTitle: story.shareTitle,
    shareDescription: story.shareDescription,
    shareImage: story.shareImage,
    noindex: story.noindex,
    images: row.image_url && !images.includes(row.image_url) ? [...images, row.image_url] : images,
    imageDetails: parseImageDetails(row.image_details),
    video: row.video || null,
    bodyImages: row.body ? documentImages(storedBody(row.body, row.content)) : [],
  };
}

/** The version `ref` of the story `newsId` (outside the trash), or null when there is none. */
export async function loadVersion(db: DB, newsId: string, ref: VersionRef): Promise<StoryVersion | null> {
  if (ref === "current") {
    const row = await db
      .selectFrom("news")
      .select(VERSION_COLUMNS)
      .where("id", "=", newsId)
      .where("status", "!=", "trashed")
      .executeTakeFirst();
    return row
      ? versionOfRow(
          row,
          (await topicsOfArticle(db, newsId)).map((topic) => topic.name),
        )
      : null;
  }
  const row = await db
    .selectFrom("news_revisions")
    .select([...VERSION_COLUMNS, "topics"])
    .where("news_id", "=", newsId)
    .where("id", "=", ref)
    .executeTakeFirst();
  return row ? versionOfRow(row, row.topics === null ? null : parseStringList(row.topics)) : null;
}

/**
 * The story's versions, the live one first then the kept ones newest first, each with the save that
 * made it: a revision row records the save that replaced its version, so a version was made by the
 * save recorded on the revision before it, and the oldest by the story's creation.
 */
export async function listVersions(db: DB, newsId: string): Promise<VersionEntry[]> {
  const [story, revisions] = await Promise.all([
    db
      .selectFrom("news")
      .leftJoin("user", "user.id", "news.author_id")
      .select(["news.title", "news.created_at", "news.updated_at", "user.name"])
      .where("news.id", "=", newsId)
      .executeTakeFirst(),
    db
      .selectFrom("news_revisions")
      .leftJoin("user", "user.id", "news_revisions.saved_by")
      .select([
        "news_revisions.id",
        "news_revisions.title",
        "news_revisions.kind",
        "news_revisions.saved_at",
        "user.name",
      ])
      .where("news_revisions.news_id", "=", newsId)
      .orderBy("news_revisions.id", "asc")
      .execute(),
  ]);
  if (!story) return [];
  let madeBy: Omit<VersionEntry, "ref" | "title"> = { kind: "created", by: story.name, at: story.created_at };
  const entries: VersionEntry[] = [];
  for (const revision of revisions) {
    entries.push({ ref: Number(revision.id), title: revision.title, ...madeBy });
    madeBy = { kind: revision.kind, by: revision.name, at: revision.saved_at };
  }
  // The live version's own time: a run of autosaves keeps one revision, and the story's last write is later.
  entries.push({
    ref: "current",
    title: story.title,
    ...madeBy,
    at: revisions.length > 0 ? (story.updated_at ?? madeBy.at) : madeBy.at,
  });
  return entries.reverse();
}

export type VersionsCompared = { versions: VersionEntry[]; from: VersionRef; to: VersionRef; comparison: Comparison };

/**
 * The compare screen of `newsId`: its versions and what going from `from` to `to` changes. Left out,
 * `from` is the newest kept version and `to` the live one; a reference to no version of this story is not-found.
 */
export async function compareStoryVersions(
  db: DB,
  newsId: string,
  fromText: string | null,
  toText: string | null,
): Promise<VersionsCompared> {
  const versions = await listVersions(db, newsId);
  const from = fromText === null ? (versions[1]?.ref ?? "current") : parseVersionRef(fromText);
  const to = toText === null ? "current" : parseVersionRef(toText);
  const [older, newer] = await Promise.all([
    from === null ? null : loadVersion(db, newsId, from),
    to === null ? null : loadVersion(db, newsId, to),
  ]);
  if (from === null || to === null || !older || !newer)
    throw new AppError("not-found", { message: revisionMessages.versionNotFound });
  return { versions, from, to, comparison: compareVersions(older, newer) };
}
