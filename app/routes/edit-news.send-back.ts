import { redirect } from "react-router";
import { SEND_BACK_READING, sendBack, sendBackSchema } from "~/server/news/review.server";
import { requireEditor } from "~/server/accounts/guards.server";
import { readForm } from "~/server/http/read-form.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/edit-news.send-back";

const editPath = (id: string) => `/edit-news/${encodeURIComponent(id)}`;

/** Editors: send an article in review back to its author with a note; a refusal is the error page. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  const form = await readForm(sendBackSchema, request, SEND_BACK_READING);
  await sendBack(site.db, params.id, form, site.clock.now());
  return redirect(`${editPath(params.id)}?sentBack=1`);
}

export function loader({ params }: Route.LoaderArgs) {
  return redirect(editPath(params.id));
}
