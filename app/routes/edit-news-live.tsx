import { randomUUID } from "node:crypto";
import { data, isRouteErrorResponse } from "react-router";
import { liveMessages } from "~/lib/messages";
import { liveDeskMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { articleIdPath } from "~/lib/news";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { CoverageDesk } from "~/components/live-coverage/coverage-desk";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import {
  COVERAGE_FORM_READING,
  coverageIntentSchema,
  readCoverageDesk,
  runCoverageIntent,
} from "~/server/coverage/coverage-desk.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { readForm } from "~/server/http/read-form.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/edit-news-live";

export const handle = HYDRATE_DOCUMENT;

/** The live desk of a story: editors and the story's author post updates; editors open, pin and close. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const user = await requireNewsroomMember(site.auth, request);
  // A new key for the post form at each load: a post that succeeded revalidates, a refused one keeps it.
  return {
    desk: await readCoverageDesk(site.newsroom, user, params.id),
    storyPath: articleIdPath(params.id),
    submissionId: randomUUID(),
  };
}

/** POST an `intent` (open, close, post, edit, delete, pin, unpin) and its fields; refusals come back as the form's data. */
export async function action({ request, params, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const user = await requireNewsroomMember(site.auth, request);
  return answerForm(
    async () =>
      runCoverageIntent(
        site.newsroom,
        user,
        params.id,
        await readForm(coverageIntentSchema, request, { ...COVERAGE_FORM_READING, maxBytes: 64 * 1024 }),
      ),
    { passOn: ["not-found", "forbidden"] },
  );
}

/**
 * A post whose answer never arrived (a connection dropped, a process killed) may have been stored: the desk
 * says so and keeps the form, its text and its key, so sending it again posts once. The 503 keeps the
 * loader (and so the key) as it is; refusals and redirects go on as the server gave them.
 */
export async function clientAction({ serverAction }: Route.ClientActionArgs) {
  try {
    return await serverAction();
  } catch (error) {
    if (isRouteErrorResponse(error) || error instanceof Response) throw error;
    return data({ error: { code: "unavailable" as const, message: liveDeskMessages.connectionLost } }, { status: 503 });
  }
}

export function meta({ matches, params }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: `/edit-news/${params.id}/live`,
    title: `${liveMessages.panelTitle} | ${siteOf(matches).name}`,
    description: newsroomMessages.editTitle,
    noindex: true,
    image: null,
  });
}

export default function EditNewsLive({ loaderData, params }: Route.ComponentProps) {
  return (
    <CoverageDesk
      desk={loaderData.desk}
      storyPath={loaderData.storyPath}
      articleId={params.id}
      submissionId={loaderData.submissionId}
    />
  );
}
