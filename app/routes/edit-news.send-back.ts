import { redirect } from "react-router";
import { sendBackFromForm } from "~/server/news/publishing.server";
import { pageError } from "~/server/http/page-error.server";
import { requireEditor } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/edit-news.send-back";

const editPath = (id: string) => `/edit-news/${encodeURIComponent(id)}`;

/** Editors: send an article in review back to its author with a note. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  const result = await sendBackFromForm(site.db, params.id, await readSmallForm(request), site.clock.now());
  if (!result.ok) throw pageError(result.error);
  return redirect(`${editPath(params.id)}?sentBack=1`);
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(editPath(params.id));
}
