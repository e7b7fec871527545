import { requireEditor } from "~/server/accounts/guards.server";
import { pageError } from "~/server/http/page-error.server";
import { SANDBOXED_DOCUMENT_POLICY } from "~/server/http/security-headers.server";
import { AppError } from "~/server/platform/app-error.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { previewOf } from "~/server/newsletter/newsroom.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-newsletter-preview";

/** The draft's mail as its readers will get it, sandboxed: the dashboard frames it at a phone's and a desktop's width. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const user = await requireEditor(site.auth, request);
  const id = Number(url.searchParams.get("id"));
  if (!Number.isSafeInteger(id) || id <= 0) throw pageError(new AppError("bad-request"));
  try {
    const mail = await previewOf(site.db, site.config.baseUrl, id, site.config.authSecret, user.email);
    return new Response(mail.html, {
      headers: {
        ...NO_STORE,
        "Content-Type": "text/html; charset=utf-8",
        "Content-Security-Policy": SANDBOXED_DOCUMENT_POLICY,
      },
    });
  } catch (error) {
    throw AppError.is(error) ? pageError(error) : error;
  }
}
