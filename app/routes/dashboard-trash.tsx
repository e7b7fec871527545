import { redirect } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { RowList } from "~/components/row-list";
import { trashActionSchema } from "~/lib/article-schema";
import { categoryLabel } from "~/lib/categories";
import { formatDay } from "~/lib/dates";
import type { FieldMessages } from "~/lib/error-body";
import { newsroomMessages } from "~/lib/newsroom-messages";
import type { NewsStatus } from "~/lib/news";
import { isAdmin } from "~/lib/permissions";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireAdmin, requireEditor } from "~/server/accounts/guards.server";
import { readForm } from "~/server/http/read-form.server";
import { pageError } from "~/server/http/page-error.server";
import { deleteFromTrash } from "~/server/news/trash-purge.server";
import { listTrash, restoreFromTrash } from "~/server/news/trash.server";
import { AppError } from "~/server/platform/app-error.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-trash";

export const handle = HYDRATE_DOCUMENT;

const STATUS_LABELS: Record<NewsStatus, string> = {
  draft: newsroomMessages.statusDraft,
  review: newsroomMessages.statusReview,
  scheduled: newsroomMessages.statusScheduled,
  published: newsroomMessages.statusPublished,
  trashed: newsroomMessages.statusTrashed,
};

export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const user = await requireEditor(site.auth, request);
  const done = url.searchParams.get("done");
  return {
    items: await listTrash(site.db),
    canDeleteForGood: isAdmin(user),
    done: done === "restored" || done === "deleted" ? done : null,
  };
}

/** A form naming no article is told so; any other is no form of this page. */
const trashRefusal = ({ id }: FieldMessages) =>
  pageError(id ? new AppError("validation", { message: id, fields: { id } }) : new AppError("bad-request"));

/** Restore (editors) or delete for good (admins) one article of the trash; a refusal is the error page. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireEditor(site.auth, request);
  const { intent, id } = await readForm(trashActionSchema, request, { refusal: trashRefusal });
  if (intent === "delete") {
    await requireAdmin(site.auth, request);
    await deleteFromTrash(site.newsroom, id);
    return redirect("/dashboard/trash?done=deleted");
  }
  await restoreFromTrash(site.db, id);
  return redirect("/dashboard/trash?done=restored");
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/trash",
    title: `${newsroomMessages.trashTitle} | ${siteOf(matches).name}`,
    description: newsroomMessages.trashTitle,
    noindex: true,
    image: null,
  });
}

const button =
  "rounded border border-stone-300 bg-white px-3 py-1 text-sm font-bold hover:bg-stone-100 whitespace-nowrap";

export default function Trash({ loaderData }: Route.ComponentProps) {
  const { items, canDeleteForGood, done } = loaderData;
  return (
    <section aria-labelledby="trash-title" className="space-y-6">
      <DashboardHeading id="trash-title" title={newsroomMessages.trashTitle} />
      <p className="text-stone-600">{newsroomMessages.trashNote}</p>
      {done && (
        <p role="status" className="rounded border border-green-700/30 bg-green-50 p-3 font-bold text-green-800">
          {done === "restored" ? newsroomMessages.restoredFromTrash : newsroomMessages.deletedForGood}
        </p>
      )}
      <div className="rounded-lg bg-white px-4 ring-1 ring-stone-200">
        <RowList
          testId="trash-list"
          rowTestId="trash-item"
          empty={newsroomMessages.trashEmpty}
          rows={items.map((item) => ({
            key: item.id,
            title: item.title,
            details: (
              <>
                {categoryLabel(item.category)} · {newsroomMessages.trashPreviousStatus}:{" "}
                {STATUS_LABELS[item.trashedFrom]} · {newsroomMessages.trashDeletedAt}:{" "}
                <time dateTime={item.deletedAt}>{formatDay(item.deletedAt)}</time>
              </>
            ),
            actions: (
              <>
                <form method="post">
                  <input type="hidden" name="id" value={item.id} />
                  <button type="submit" name="intent" value="restore" className={button}>
                    {newsroomMessages.restoreFromTrash}
                  </button>
                </form>
                {canDeleteForGood && (
                  <form
                    method="post"
                    onSubmit={(event) =>
                      !window.confirm(newsroomMessages.confirmDeleteForGood) && event.preventDefault()
                    }
                  >
                    <input type="hidden" name="id" value={item.id} />
                    <button type="submit" name="intent" value="delete" className={`${button} text-brand-700`}>
                      {newsroomMessages.deleteForGood}
                    </button>
                  </form>
                )}
              </>
            ),
          }))}
        />
      </div>
    </section>
  );
}
