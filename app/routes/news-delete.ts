import { redirect } from "react-router";
import { safeRedirect } from "~/lib/same-origin-path";
import { trashArticle } from "~/server/news/trash.server";
import { requireEditor } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/news-delete";

export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  const form = await readSmallForm(request);
  const room = site.newsroom;
  await trashArticle(room.db, params.id, room.clock.now());
  return redirect(safeRedirect(form.get("redirectTo")));
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(`/news/${encodeURIComponent(params.id)}`);
}
