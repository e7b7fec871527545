import { redirect } from "react-router";
import { newsletterMessages as m } from "~/lib/messages";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { unsubscribeByLink } from "~/server/newsletter/subscribers.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/newsletter-one-click";

const tokenOf = (url: URL) => (url.searchParams.get("t") ?? "").slice(0, 500);

/** A person who opens the List-Unsubscribe address gets their preferences page, with its unsubscribe button. */
export function loader({ url }: Route.LoaderArgs) {
  return redirect(`/newsletter/preferences?t=${encodeURIComponent(tokenOf(url))}#unsubscribe`, { headers: NO_STORE });
}

/** RFC 8058's one-click unsubscribe: the mail provider's POST, with no cookie, takes effect at once. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const headers = { ...NO_STORE, "Content-Type": "text/plain; charset=utf-8" };
  try {
    await unsubscribeByLink(site.db, site.config.authSecret, tokenOf(new URL(request.url)), site.clock.now());
  } catch (error) {
    if (!AppError.is(error)) throw error;
    return new Response(m.linkInvalid, { status: error.status, headers });
  }
  return new Response(m.unsubscribedText, { status: 200, headers });
}
