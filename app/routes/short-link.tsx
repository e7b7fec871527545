import { data, redirect } from "react-router";
import { messages } from "~/lib/messages";
import { audienceOf } from "~/server/accounts/guards.server";
import { auth } from "~/server/platform/site.server";
import { db } from "~/server/db/db.server";
import { isShortId, resolveShortLink } from "~/server/news/short-links.server";
import type { Route } from "./+types/short-link";

/** /{shortId}: a 302 to the article, or the 'الرابط غير موجود' page. */
export async function loader({ request, params }: Route.LoaderArgs) {
  if (!isShortId(params.shortId)) throw data({ message: messages.pageNotFound }, 404);
  const target = await resolveShortLink(db(), params.shortId, await audienceOf(auth(), request));
  if (!target) throw data({ message: messages.shortLinkNotFound }, 404);
  return redirect(target, 302);
}

export default function ShortLink() {
  return null;
}
