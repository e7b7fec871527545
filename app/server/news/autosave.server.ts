import { articleIdField, articleSchema } from "~/lib/article-schema";
import { ARTICLE_TEXT_FIELDS, AUTOSAVE_READ_FIELDS, articleFormValues } from "~/lib/article-form-fields";
import { articleFieldErrors } from "~/lib/field-errors";
import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { EDITORS } from "~/lib/audience";
import { canEditArticle, isEditor, isNewsroomMember, type Actor } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { getArticle } from "./articles-read.server";
import { createArticle, updateArticle } from "./articles-write.server";
import { describeLibraryImages } from "./media-library.server";
import { ownershipOf } from "./ownership.server";
import { articleNotFound } from "./ownership.server";
import { autosavedChanges } from "./publishing.server";
import { assertTopicsAllowed } from "./topics.server";
import { refusalOfFields, requireBaseVersion } from "./base-version.server";

/*
 * Autosave: every field a save of the form stores but the submit's choices, files and
 * removals (lib/article-form-fields.ts), every few seconds while it changes, into a draft only. A new
 * article becomes a draft at its first autosave (its form's submission id makes a repeated first
 * autosave find the same draft); then the form keeps saving into it. An article that is not a draft
 * is never autosaved: its row is what readers (or reviewers, or the schedule) see.
 */

/** What an autosave request may name: the article form's text fields, and the draft's `id`. */
const REQUEST_FIELDS: ReadonlySet<string> = new Set([...ARTICLE_TEXT_FIELDS, "id"]);

/** The request's fields by name: a text, or a list of texts for the images' order and details. */
export type AutosaveFields = Record<string, string | readonly string[] | undefined>;
/** `version`: the draft's version after this save, the base of the form's next save. */
export type Autosaved = { id: string; savedAt: string; version: number };

/**
 * The fields checked as the form's save checks them, as a draft's. A field the form does not have is
 * refused by its name; the submit's choices, files and removals are the save's, not read here.
 */
function checked(fields: AutosaveFields) {
  const unknown = Object.keys(fields).find((name) => fields[name] !== undefined && !REQUEST_FIELDS.has(name));
  if (unknown !== undefined)
    throw new AppError("validation", {
      message: newsroomMessages.fieldUnknown,
      fields: { [unknown]: newsroomMessages.fieldUnknown },
    });
  const texts = (name: string) => {
    const value = fields[name];
    return value === undefined ? undefined : typeof value === "string" ? [value] : value;
  };
  const id = articleIdField.optional().safeParse(texts("id")?.[0] || undefined);
  const parsed = articleSchema.safeParse({ ...articleFormValues(texts, AUTOSAVE_READ_FIELDS), status: "draft" });
  if (!parsed.success) throw refusalOfFields(articleFieldErrors(parsed.error.issues));
  if (!id.success) throw refusalOfFields({ id: id.error.issues[0]?.message ?? messages.newsNotFound });
  return { id: id.data, input: parsed.data };
}

type Checked = ReturnType<typeof checked>;

async function draftToSave(db: DB, actor: Actor, { id, input }: Checked, now: Date): Promise<string> {
  if (id) return id;
  if (!input.submissionId) throw new AppError("bad-request");
  const { title, content, body, category, submissionId } = input;
  const created = await createArticle(db, {
    title,
    content,
    body,
    category,
    submissionId,
    status: "draft",
    authorId: actor.id,
    createdAt: now,
  });
  return created.id;
}

/** Saves the form's fields into the draft `fields.id`, or into a new draft, at `now`; throws an AppError when it may not. */
export async function autosaveDraft(
  db: DB,
  actor: Actor,
  fields: AutosaveFields,
  now = new Date(),
): Promise<Autosaved> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
  const request = checked(fields);
  const { input } = request;
  if (input.topics) await assertTopicsAllowed(db, { names: input.topics, mayCreate: isEditor(actor) });
  const id = await draftToSave(db, actor, request, now);
  const owned = await ownershipOf(db, id);
  if (!owned || owned.status === "trashed") throw articleNotFound();
  if (!canEditArticle(actor, owned)) throw new AppError("forbidden");
  if (owned.status !== "draft") throw new AppError("conflict", { message: newsroomMessages.autosaveDraftsOnly });
  // A save into a draft that exists says which version it was based on; the first made the draft.
  const baseVersion = request.id ? requireBaseVersion(input.baseVersion) : undefined;
  const article = await getArticle(db, id, EDITORS);
  if (!article) throw articleNotFound();
  const changes = await autosavedChanges(db, actor, article, input);
  const saved = await updateArticle(db, id, { ...changes, baseVersion }, { by: actor.id, kind: "autosave", at: now });
  if (!saved) throw new AppError("conflict", { message: newsroomMessages.autosaveDraftsOnly });
  if (changes.imageDetails) await describeLibraryImages(db, changes.imageDetails);
  return { id, savedAt: now.toISOString(), version: saved.version };
}
