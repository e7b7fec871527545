import { categoryLabel, isCategory } from "./categories";
import type { ImageDetailsMap } from "./image-details";
import { revisionMessages } from "./newsroom-messages";
import { changed, wordDiff, type DiffPart } from "./word-diff";

/* Two versions of a story side by side: what the words, the other fields and the media became. */

/** The live story, or one revision of it by id. */
export type VersionRef = "current" | number;

/** One entry of the history: a version, and the save that made it (or the story's creation for the first). */
export type VersionEntry = {
  ref: VersionRef;
  title: string;
  kind: "save" | "autosave" | "created";
  by: string | null;
  at: string;
};

/** How each kind of save is named in the history and the compare screen. */
export const VERSION_KIND_LABELS: Record<VersionEntry["kind"], string> = {
  save: revisionMessages.kindSave,
  autosave: revisionMessages.kindAutosave,
  created: revisionMessages.kindCreated,
};

/** A version of a story as the compare screen reads it: the live article or one of its revisions. */
export type StoryVersion = {
  title: string;
  standfirst: string | null;
  /** The body as plain text. */
  text: string;
  category: string;
  byline: string | null;
  /** Null for a revision kept before topics. */
  topics: string[] | null;
  slug: string | null;
  shareTitle: string | null;
  shareDescription: string | null;
  shareImage: string | null;
  noindex: boolean;
  /** Images in order, the first the cover; the legacy single image after them. */
  images: string[];
  imageDetails: ImageDetailsMap;
  video: string | null;
  /** The images placed in the body, in order. */
  bodyImages: string[];
};

/** A field besides the words that the two versions hold differently, as the screen shows it. */
export type FieldChange = { label: string; from: string; to: string };

export type MediaChanges = {
  imagesAdded: string[];
  imagesRemoved: string[];
  cover: { from: string | null; to: string | null } | null;
  videoAdded: string | null;
  videoRemoved: string | null;
  /** Images in both whose alt, caption or credit differ. */
  detailsChanged: string[];
  bodyImagesAdded: string[];
  bodyImagesRemoved: string[];
};

export type Comparison = {
  title: DiffPart[];
  standfirst: DiffPart[];
  text: DiffPart[];
  fields: FieldChange[];
  media: MediaChanges;
};

const none = (value: string | null) => value ?? "";
const shown = (value: string | null) => (value === null || value === "" ? revisionMessages.emptyValue : value);
const categoryName = (value: string) => (isCategory(value) ? categoryLabel(value) : value);
const yesNo = (value: boolean) => (value ? revisionMessages.yes : revisionMessages.no);

/** The fields other than title, standfirst, body and media, each with how to show it. */
const OTHER_FIELDS: { label: string; show: (version: StoryVersion) => string }[] = [
  { label: revisionMessages.fieldCategory, show: (v) => categoryName(v.category) },
  { label: revisionMessages.fieldByline, show: (v) => shown(v.byline) },
  {
    label: revisionMessages.fieldTopics,
    show: (v) => (v.topics && v.topics.length > 0 ? v.topics.join("، ") : revisionMessages.emptyValue),
  },
  { label: revisionMessages.fieldSlug, show: (v) => shown(v.slug) },
  { label: revisionMessages.fieldShareTitle, show: (v) => shown(v.shareTitle) },
  { label: revisionMessages.fieldShareDescription, show: (v) => shown(v.shareDescription) },
  { label: revisionMessages.fieldShareImage, show: (v) => shown(v.shareImage) },
  { label: revisionMessages.fieldNoindex, show: (v) => yesNo(v.noindex) },
];

function sameDetails(a: ImageDetailsMap, b: ImageDetailsMap, url: string): boolean {
  const x = Object.hasOwn(a, url) ? a[url] : undefined;
  const y = Object.hasOwn(b, url) ? b[url] : undefined;
  return (
    (x?.alt ?? "") === (y?.alt ?? "") &&
    (x?.caption ?? "") === (y?.caption ?? "") &&
    (x?.credit ?? "") === (y?.credit ?? "")
  );
}

export function mediaChanges(from: StoryVersion, to: StoryVersion): MediaChanges {
  const before = new Set(from.images);
  const after = new Set(to.images);
  const coverFrom = from.images[0] ?? null;
  const coverTo = to.images[0] ?? null;
  return {
    imagesAdded: to.images.filter((url) => !before.has(url)),
    imagesRemoved: from.images.filter((url) => !after.has(url)),
    cover: coverFrom !== coverTo ? { from: coverFrom, to: coverTo } : null,
    videoAdded: to.video !== from.video ? to.video : null,
    videoRemoved: to.video !== from.video ? from.video : null,
    detailsChanged: to.images.filter((url) => before.has(url) && !sameDetails(from.imageDetails, to.imageDetails, url)),
    bodyImagesAdded: to.bodyImages.filter((url) => !from.bodyImages.includes(url)),
    bodyImagesRemoved: from.bodyImages.filter((url) => !to.bodyImages.includes(url)),
  };
}

/** What going from `from` to `to` changes. */
export function compareVersions(from: StoryVersion, to: StoryVersion): Comparison {
  return {
    title: wordDiff(from.title, to.title),
    standfirst: wordDiff(none(from.standfirst), none(to.standfirst)),
    text: wordDiff(from.text, to.text),
    fields: OTHER_FIELDS.flatMap(({ label, show }) =>
      show(from) === show(to) ? [] : [{ label, from: show(from), to: show(to) }],
    ),
    media: mediaChanges(from, to),
  };
}

/** The pictures and video that would leave the story, from its image list or its body: what a restore must have confirmed. */
export function mediaRemoved(media: MediaChanges): string[] {
  return [
    ...new Set([
      ...media.imagesRemoved,
      ...media.bodyImagesRemoved,
      ...(media.videoRemoved ? [media.videoRemoved] : []),
    ]),
  ];
}

export function hasMediaChanges(media: MediaChanges): boolean {
  return (
    media.imagesAdded.length +
      media.imagesRemoved.length +
      media.detailsChanged.length +
      media.bodyImagesAdded.length +
      media.bodyImagesRemoved.length >
      0 ||
    media.cover !== null ||
    media.videoAdded !== null ||
    media.videoRemoved !== null
  );
}

export function hasChanges(comparison: Comparison): boolean {
  return (
    changed(comparison.title) ||
    changed(comparison.standfirst) ||
    changed(comparison.text) ||
    comparison.fields.length > 0 ||
    hasMediaChanges(comparison.media)
  );
}

/**
 * `revision` with `live`'s images, video, share picture, address and indexing: what a text-only
 * restore writes. Pictures placed in the body go with the body's text.
 */
export function textOnly(revision: StoryVersion, live: StoryVersion): StoryVersion {
  return {
    ...revision,
    images: live.images,
    imageDetails: live.imageDetails,
    video: live.video,
    shareImage: live.shareImage,
    slug: live.slug,
    noindex: live.noindex,
  };
}
