import { articleIdField, type ArticleFormInput } from "~/lib/article-schema";
import { ARTICLE_TEXT_FIELDS, AUTOSAVE_READ_FIELDS, articleFormValues } from "~/lib/article-form-fields";
import { articleFieldOf } from "~/lib/field-errors";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { EDITORS } from "~/lib/audience";
import { canEditArticle, isEditor, isNewsroomMember, type Actor } from "~/lib/permissions";
import { z } from "~/lib/zod";
import type { DB } from "~/server/db/db.server";
import type { ReadFormOptions } from "~/server/http/read-form.server";
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

/** `version`: the draft's version after this save, the base of the form's next save. */
export type Autosaved = { id: string; savedAt: string; version: number };

/**
 * How an autosave request is read into articleSchema (http/read-form): checked as the form's save checks it,
 * as a draft's. A field the form does not have is refused by its name; the submit's choices, files and
 * removals are the save's, not read here.
 */
export const AUTOSAVE_FORM_READING: ReadFormOptions = {
  known: REQUEST_FIELDS,
  values: ({ texts }) => ({ ...articleFormValues(texts, AUTOSAVE_READ_FIELDS), status: "draft" }),
  fieldOf: articleFieldOf,
  refusal: refusalOfFields,
};

/** The draft an autosave request names, read once its fields passed (AUTOSAVE_ID_READING). */
export const autosaveIdSchema = z.object({ id: articleIdField.optional() });
export const AUTOSAVE_ID_READING: ReadFormOptions = {
  values: ({ texts }) => ({ id: texts("id")?.[0] || undefined }),
  refusal: refusalOfFields,
};

/** An autosave as its route read it: the draft's `id` once it has one, and the form's fields. */
export type AutosaveRequest = { id: string | undefined; input: ArticleFormInput };

async function draftToSave(db: DB, actor: Actor, { id, input }: AutosaveRequest, now: Date): Promise<string> {
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

/** Saves the form's fields into the draft `request.id`, or into a new draft, at `now`; throws an AppError when it may not. */
export async function autosaveDraft(
  db: DB,
  actor: Actor,
  request: AutosaveRequest,
  now = new Date(),
): Promise<Autosaved> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
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
