/**
 * Every field of the article form (components/article-form.tsx): the one list its schema
 * (article-schema.ts), the save's and autosave's readers, the preview and the leave-warning follow.
 *
 * - `values`: one text, many (one per image, in order), or a file.
 * - `kept`: `autosave` for the story's text and details, which autosave stores in a draft; `save` for
 *   what only a save stores (the submit's choices, files, removals), so a change to one stays unsaved
 *   until the form is submitted; `bookkeeping` for what the form sends with every save of either kind.
 * - `blankIsAbsent`: an empty value means the field was not sent.
 */
type FieldSpec = { values: "one" | "many" | "file"; kept: "autosave" | "save" | "bookkeeping"; blankIsAbsent?: true };

export const ARTICLE_FORM_FIELDS = {
  title: { values: "one", kept: "autosave" },
  standfirst: { values: "one", kept: "autosave" },
  body: { values: "one", kept: "autosave", blankIsAbsent: true },
  /** Plain text, from clients written before the editor (the JSON API); the form sends `body`. */
  content: { values: "one", kept: "autosave", blankIsAbsent: true },
  byline: { values: "one", kept: "autosave" },
  category: { values: "one", kept: "autosave" },
  topics: { values: "one", kept: "autosave" },
  imageOrder: { values: "many", kept: "autosave" },
  imageAlt: { values: "many", kept: "autosave" },
  imageCaption: { values: "many", kept: "autosave" },
  imageCredit: { values: "many", kept: "autosave" },
  imageUrl: { values: "one", kept: "autosave" },
  videoUrl: { values: "one", kept: "autosave" },
  slug: { values: "one", kept: "autosave" },
  shareTitle: { values: "one", kept: "autosave" },
  shareDescription: { values: "one", kept: "autosave" },
  noindex: { values: "one", kept: "autosave" },
  status: { values: "one", kept: "save" },
  publishAt: { values: "one", kept: "save", blankIsAbsent: true },
  sendAlert: { values: "one", kept: "save" },
  confirmAlert: { values: "one", kept: "save" },
  removeImages: { values: "many", kept: "save" },
  removeVideo: { values: "one", kept: "save" },
  removeShareImage: { values: "one", kept: "save" },
  images: { values: "file", kept: "save" },
  video: { values: "file", kept: "save" },
  shareImage: { values: "file", kept: "save" },
  submissionId: { values: "one", kept: "bookkeeping", blankIsAbsent: true },
  baseVersion: { values: "one", kept: "bookkeeping", blankIsAbsent: true },
} as const satisfies Record<string, FieldSpec>;

type Fields = typeof ARTICLE_FORM_FIELDS;
export type ArticleFormField = keyof Fields;
/** The fields that carry text (the schema checks them); the files are the upload's. */
export type ArticleTextField = {
  [Name in ArticleFormField]: Fields[Name]["values"] extends "file" ? never : Name;
}[ArticleFormField];

const names = Object.keys(ARTICLE_FORM_FIELDS) as ArticleFormField[];
const isText = (name: ArticleFormField): name is ArticleTextField => ARTICLE_FORM_FIELDS[name].values !== "file";

export const ARTICLE_TEXT_FIELDS: readonly ArticleTextField[] = names.filter(isText);
/** What a draft's autosave sends and stores: everything a save stores but the submit's choices, files and removals. */
export const AUTOSAVED_FIELDS: readonly ArticleTextField[] = ARTICLE_TEXT_FIELDS.filter(
  (name) => ARTICLE_FORM_FIELDS[name].kept === "autosave",
);
/** What an autosave reads: the fields it stores and the form's bookkeeping (submission id, base version). */
export const AUTOSAVE_READ_FIELDS: readonly ArticleTextField[] = ARTICLE_TEXT_FIELDS.filter(
  (name) => ARTICLE_FORM_FIELDS[name].kept !== "save",
);

/** A form's raw values by field, as the schema reads them: a text, a list of texts, or absent. */
export type ArticleFormValues = Partial<Record<ArticleTextField, string | string[]>>;

/** The raw values of `fields`, from `all`: every text a form sent under a name (undefined: none sent). */
export function articleFormValues(
  all: (name: string) => readonly string[] | undefined,
  fields: readonly ArticleTextField[] = ARTICLE_TEXT_FIELDS,
): ArticleFormValues {
  const values: ArticleFormValues = {};
  for (const name of fields) {
    const sent = all(name);
    const spec: FieldSpec = ARTICLE_FORM_FIELDS[name];
    if (spec.values === "many") values[name] = sent ? [...sent] : undefined;
    else values[name] = spec.blankIsAbsent && !sent?.[0] ? undefined : sent?.[0];
  }
  return values;
}

/** The texts of `fields` in `from`, added to `to` as the form holds them (a field it does not have stays out). */
export function copyFields(from: FormData, to: FormData, fields: readonly ArticleTextField[]): FormData {
  for (const name of fields)
    for (const value of from.getAll(name)) if (typeof value === "string") to.append(name, value);
  return to;
}

/** A field's value as text: a chosen file by its name, size and date; a file field with no file chosen, empty (its stand-in's date is the moment it was read). */
const heldText = (value: FormDataEntryValue) =>
  typeof value === "string"
    ? value
    : value.name === "" && value.size === 0
      ? ""
      : `${value.name}\u0000${value.size}\u0000${value.lastModified}`;

/**
 * What the form holds in each field, as text to compare (a chosen file by its name, size and date):
 * the leave-warning's measure of what is not saved yet.
 */
export function heldValues(form: FormData): Map<ArticleFormField, string> {
  const held = new Map<ArticleFormField, string>();
  for (const name of names) {
    const values = form.getAll(name).map(heldText);
    held.set(name, JSON.stringify(values));
  }
  return held;
}
