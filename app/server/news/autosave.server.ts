import { articleFields, articleIdField, withArticleText } from "~/lib/article-schema";
import { articleFieldErrors } from "~/lib/field-errors";
import { parseStringList } from "~/lib/json";
import { messages } from "~/lib/messages";
import { canEditArticle, isEditor, isNewsroomMember, type Actor } from "~/lib/permissions";
import type { DB } from "~/server/db/db.server";
import { AppError } from "~/server/platform/app-error.server";
import { createArticle, updateArticle } from "./articles-write.server";
import { ownershipOf } from "./ownership.server";
import { articleNotFound } from "./ownership.server";
import { assertTopicsAllowed } from "./topics.server";
import { refusalOfFields, requireBaseVersion } from "./base-version.server";

/*
 * Autosave (issue 17): the form's text, every few seconds while it changes, into a draft only. A new
 * article becomes a draft at its first autosave (its form's submission id makes a repeated first
 * autosave find the same draft); then the form keeps saving into it. An article that is not a draft
 * is never autosaved: its row is what readers (or reviewers, or the schedule) see.
 */

const autosaveSchema = articleFields
  .pick({ title: true, content: true, body: true, category: true, standfirst: true, submissionId: true, topics: true, baseVersion: true })
  .extend({ id: articleIdField.optional() })
  .transform(withArticleText);

export type AutosaveFields = { id?: string; title?: string; content?: string; body?: string; category?: string; standfirst?: string; submissionId?: string; topics?: string; baseVersion?: string };
/** `version`: the draft's version after this save, the base of the form's next save. */
export type Autosaved = { id: string; savedAt: string; version: number };

function checked(fields: AutosaveFields) {
  const parsed = autosaveSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  throw refusalOfFields(articleFieldErrors(parsed.error.issues));
}

async function draftToSave(db: DB, actor: Actor, { id, topics: _topics, baseVersion: _base, ...input }: ReturnType<typeof checked>, now: Date): Promise<string> {
  if (id) return id;
  if (!input.submissionId) throw new AppError("bad-request");
  const { standfirst, ...text } = input;
  const created = await createArticle(db, { ...text, story: { standfirst }, status: "draft", authorId: actor.id, createdAt: now });
  return created.id;
}

/** Saves the text into the draft `fields.id`, or into a new draft, at `now`; throws an AppError when it may not. */
export async function autosaveDraft(db: DB, actor: Actor, fields: AutosaveFields, now = new Date()): Promise<Autosaved> {
  if (!isNewsroomMember(actor)) throw new AppError("forbidden");
  const input = checked(fields);
  const topics = input.topics && { names: input.topics, mayCreate: isEditor(actor) };
  if (topics) await assertTopicsAllowed(db, topics);
  const id = await draftToSave(db, actor, input, now);
  const owned = await ownershipOf(db, id);
  if (!owned || owned.status === "trashed") throw articleNotFound();
  if (!canEditArticle(actor, owned)) throw new AppError("forbidden");
  if (owned.status !== "draft") throw new AppError("conflict", { message: messages.autosaveDraftsOnly });
  // A save into a draft that exists says which version it was based on; the first made the draft.
  const baseVersion = input.id ? requireBaseVersion(input.baseVersion) : undefined;
  const current = await db.selectFrom("news").select(["images", "image_url", "video"]).where("id", "=", id).executeTakeFirstOrThrow();
  const saved = await updateArticle(
    db,
    id,
    {
      title: input.title,
      content: input.content,
      body: input.body,
      category: input.category,
      status: "draft",
      imageUrl: current.image_url,
      images: parseStringList(current.images),
      video: current.video,
      topics,
      story: { standfirst: input.standfirst },
      baseVersion,
    },
    { by: actor.id, kind: "autosave", at: now },
  );
  if (!saved) throw new AppError("conflict", { message: messages.autosaveDraftsOnly });
  return { id, savedAt: now.toISOString(), version: saved.version };
}
