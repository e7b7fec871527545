import { Link } from "react-router";
import { messages } from "~/lib/messages";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { ArticleBody } from "~/components/article-body";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { readForm } from "~/server/http/read-form.server";
import { PREVIEW_FORM_READING, previewFromForm, previewSchema } from "~/server/news/preview.server";

import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-preview";

/** The form's text, at most CONTENT_MAX characters of Arabic in UTF-8, and a few short fields. */
const PREVIEW_FORM_BYTES = 512 * 1024;

/** The article page as readers would see it, from the posted form (every field of lib/article-form-fields.ts): nothing is saved, nothing is cached, never indexed. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await requireNewsroomMember(site.auth, request);
  const input = await readForm(previewSchema, request, { ...PREVIEW_FORM_READING, maxBytes: PREVIEW_FORM_BYTES });
  const preview = await previewFromForm(site.db, user, input, site.clock.now());
  return { preview };
}

export const headers = () => NO_STORE;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/preview",
    title: `${newsroomMessages.preview} | ${siteOf(matches).name}`,
    description: newsroomMessages.preview,
    noindex: true,
    image: null,
  });
}

export default function PreviewPage({ actionData }: Route.ComponentProps) {
  // Only a POST of the form has something to show.
  if (!actionData) {
    return (
      <Link to="/dashboard" className="font-bold text-brand-700 hover:underline">
        {messages.dashboard}
      </Link>
    );
  }
  return (
    <div className="grid gap-8 lg:grid-cols-3">
      <div className="space-y-6 lg:col-span-2">
        <p
          role="note"
          className="rounded border border-amber-300 bg-amber-50 p-3 font-bold text-amber-900"
          data-testid="preview-banner"
        >
          {newsroomMessages.previewBanner}
        </p>
        <ArticleBody {...actionData.preview} />
      </div>
    </div>
  );
}
