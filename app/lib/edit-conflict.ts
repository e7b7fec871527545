import { categoryLabel, isCategory } from "./categories";
import { conflictMessages } from "./newsroom-messages";
import type { NewsStatus } from "./news";
import { documentPlainText, parseRichDocument, type RichDocument } from "./rich-text/document";
import { statusLabel } from "./status-labels";

/** The story as it is saved now, as GET /api/news/{id} gives it: what the conflict view compares the form with. */
export type SavedStory = {
  id: string;
  version: number;
  title: string;
  standfirst: string | null;
  body: RichDocument;
  byline: string | null;
  category: string;
  status: NewsStatus;
  topics: string[];
  images: string[];
  imageUrl: string | null;
  video: string | null;
  slug: string | null;
  shareTitle: string | null;
  shareDescription: string | null;
  noindex: boolean;
};

/** Beside the error of a 409 edit-conflict: the story as saved now, when the client may still edit it. */
export type ConflictDetails = { current?: SavedStory };

/** The story as saved now that a 409 edit-conflict's body carries, if any. */
export function currentOfConflict(body: unknown): SavedStory | undefined {
  const current = (body as ConflictDetails | null)?.current;
  return typeof current === "object" && current !== null && typeof current.id === "string" ? current : undefined;
}

export type ConflictField = keyof typeof conflictMessages.fields;

/**
 * One field where the form and the saved story differ. `name`: the form's field to set to theirs when
 * merging by hand, for the fields a plain input holds.
 */
export type Difference = {
  field: ConflictField;
  mine: string;
  theirs: string;
  images?: { mine: string[]; theirs: string[] };
  name?: string;
  value?: string;
};

const text = (value: FormDataEntryValue | null) => (typeof value === "string" ? value.replace(/\s+/g, " ").trim() : "");
const bodyText = (document: RichDocument | null) => (document ? documentPlainText(document) : "");
const topicList = (value: string) =>
  value
    .split(/[,،]/)
    .map((name) => name.trim())
    .filter(Boolean);
const files = (fields: FormData, name: string) =>
  fields.getAll(name).filter((value): value is File => typeof value !== "string" && value.name !== "");

/** The images the form would leave the story with: those it keeps, in its order, then the new files by name. */
function imagesOfForm(fields: FormData): string[] {
  const removed = new Set(fields.getAll("removeImages").map(String));
  const kept = fields
    .getAll("imageOrder")
    .map(String)
    .filter((url) => !removed.has(url));
  return [...kept, ...files(fields, "images").map((file) => `${conflictMessages.newFile} ${file.name}`)];
}

function videoOfForm(fields: FormData, base: { video: string | null }): string {
  const [upload] = files(fields, "video");
  if (upload) return `${conflictMessages.newFile} ${upload.name}`;
  const url = text(fields.get("videoUrl"));
  if (url) return url;
  const local = base.video?.startsWith("/media/") ? base.video : "";
  return fields.get("removeVideo") === "on" ? "" : local;
}

/**
 * The fields where the form (`fields`, opened on `base`) and the story saved since (`theirs`) differ,
 * each as text to show side by side. An empty slug in the form keeps the story's, so it differs in nothing.
 */
export function differences(fields: FormData, base: { video: string | null }, theirs: SavedStory): Difference[] {
  const found: Difference[] = [];
  const add = (field: ConflictField, mine: string, theirsText: string, extra: Partial<Difference> = {}) => {
    if (mine !== theirsText) found.push({ field, mine, theirs: theirsText, ...extra });
  };
  const plain = (field: ConflictField & keyof SavedStory, name: string = field) => {
    const value = (theirs[field] as string | null) ?? "";
    add(field, text(fields.get(name)), text(value), { name, value });
  };
  plain("title");
  plain("standfirst");
  add("body", bodyText(parseRichDocument(String(fields.get("body") ?? ""))), bodyText(theirs.body));
  plain("byline");
  const category = String(fields.get("category") ?? "");
  add(
    "category",
    isCategory(category) ? categoryLabel(category) : category,
    isCategory(theirs.category) ? categoryLabel(theirs.category) : theirs.category,
    { name: "category", value: theirs.category },
  );
  const status = String(fields.get("status") ?? "") as NewsStatus;
  // A status the form cannot give (trashed) is shown as it is.
  add("status", status ? statusLabel(status) : "", statusLabel(theirs.status), {
    name: "status",
    value: theirs.status,
  });
  if (fields.has("topics"))
    add(
      "topics",
      topicList(String(fields.get("topics"))).join(conflictMessages.nameSeparator),
      theirs.topics.join(conflictMessages.nameSeparator),
    );
  const images = imagesOfForm(fields);
  if (images.join("\n") !== theirs.images.join("\n")) {
    found.push({
      field: "images",
      mine: conflictMessages.imagesCount(images.length),
      theirs: conflictMessages.imagesCount(theirs.images.length),
      images: { mine: images, theirs: theirs.images },
    });
  }
  if (fields.has("imageUrl")) plain("imageUrl");
  add("video", videoOfForm(fields, base), theirs.video ?? "");
  if (text(fields.get("slug"))) plain("slug");
  plain("shareTitle");
  plain("shareDescription");
  add(
    "noindex",
    fields.get("noindex") === "on" ? conflictMessages.yes : conflictMessages.no,
    theirs.noindex ? conflictMessages.yes : conflictMessages.no,
  );
  return found;
}
