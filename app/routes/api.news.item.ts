import { NO_STORE } from "~/server/platform/cache-control.server";
import { errorResponse } from "~/server/http/error-response.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { articleSchema } from "~/lib/article-schema";
import { readForm } from "~/server/http/read-form.server";
import { articleFormReading } from "~/server/news/article-form.server";
import { editableArticle, editArticle } from "~/server/news/publishing.server";
import { ARTICLE_FORM_LIMITS } from "~/server/news/submission-limits.server";
import { trashArticle } from "~/server/news/trash.server";
import { apiStory, conflictDetails } from "~/server/news/api-story.server";
import { requireEditor, requireNewsroomMember } from "~/server/accounts/guards.server";
import { AppError, isEditConflict } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/api.news.item";

/** Newsroom API: GET an article its reader may edit, with the form's fields. A refusal is thrown and answered as JSON (http/error-response). */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  return Response.json(await apiStory(site.db, params.id, actor), { headers: NO_STORE });
}

/**
 * PUT a multipart article form to edit (authors: their own drafts), with `baseVersion` the version it
 * was based on (409 edit-conflict when another save came first, with the story as saved now as `current`);
 * 200 with the new version. DELETE to move to the trash (editors). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const room = site.newsroom;
  if (request.method === "DELETE") {
    await requireEditor(site.auth, request);
    await trashArticle(room.db, params.id, room.clock.now());
    return Response.json({ id: params.id, deleted: true }, { headers: NO_STORE });
  }
  const actor = await requireNewsroomMember(site.auth, request);
  if (request.method !== "PUT" && request.method !== "POST") return errorResponse(new AppError("method-not-allowed"));
  const { article } = await editableArticle(room.db, params.id, actor);
  try {
    const { version } = await withSubmission(request, room.stagingDir, ARTICLE_FORM_LIMITS, async (form) =>
      editArticle(room, actor, article, {
        input: await readForm(articleSchema, form, articleFormReading("api")),
        files: form.files,
      }),
    );
    return Response.json({ id: article.id, version }, { headers: NO_STORE });
  } catch (error) {
    if (!isEditConflict(error)) throw error;
    return errorResponse(error, await conflictDetails(room.db, article.id, actor));
  }
}
