import { redirect } from "react-router";
import { messages } from "~/lib/messages";
import { taggedLink, UTM_PARAMETER } from "~/lib/reader-classes";
import { isShortId, resolveShortLink } from "~/server/news/short-links.server";
import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/short-link";

/** /{shortId}: a 301 to the article's canonical address (keeping the share's `utm_source`), or the 'الرابط غير موجود' page. */
export async function loader({ params, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  if (!isShortId(params.shortId)) throw pageError(new AppError("not-found"));
  const target = await resolveShortLink(site.db, params.shortId);
  if (!target) throw pageError(new AppError("not-found", { message: messages.shortLinkNotFound }));
  const source = url.searchParams.get(UTM_PARAMETER);
  return redirect(source ? taggedLink(target, source.slice(0, 64)) : target, 301);
}

export default function ShortLink() {
  return null;
}
