import { redirect } from "react-router";
import { sendBack } from "~/server/news/review.server";
import { requireEditor } from "~/server/accounts/guards.server";
import { formText, readSmallForm } from "~/server/http/form.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/edit-news.send-back";

const editPath = (id: string) => `/edit-news/${encodeURIComponent(id)}`;

/** Editors: send an article in review back to its author with a note; a refusal is the error page. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  const form = await readSmallForm(request);
  await sendBack(site.db, params.id, formText(form, "note") ?? "", site.clock.now());
  return redirect(`${editPath(params.id)}?sentBack=1`);
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(editPath(params.id));
}
