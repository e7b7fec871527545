import { useState } from "react";
import { Form, Link, useFetcher, useRevalidator } from "react-router";
import { accountButton, Notice } from "~/components/account-fields";
import { DashboardHeading } from "~/components/dashboard-heading";
import { FocalPointPicker } from "~/components/focal-point-picker";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { IMAGE_DETAIL_MAX } from "~/lib/image-details";
import {
  inCurrentUse,
  libraryFilterFromUrl,
  libraryPageFromUrl,
  libraryPath,
  type LibraryEntry,
  type MediaUseKind,
} from "~/lib/media-library";
import { mediaLibraryMessages as text, imageDetailMessages } from "~/lib/newsroom-messages";
import { sendWithProgress } from "~/lib/upload-client";
import { isEditor } from "~/lib/permissions";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { HYDRATE_DOCUMENT } from "~/islands/hydration";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { readSmallForm } from "~/server/http/form.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { withSubmission } from "~/server/http/multipart-form.server";
import { NO_STORE } from "~/server/platform/cache-control.server";
import { siteContext } from "~/server/site/request-context.server";
import {
  changeLibraryImage,
  LIBRARY_UPLOAD_LIMITS,
  searchLibrary,
  uploadLibraryImages,
} from "~/server/news/media-library.server";
import type { Route } from "./+types/dashboard-media";

export const handle = HYDRATE_DOCUMENT;

/** The newsroom's media library: every stored article image, searchable, with where it is used. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const filter = libraryFilterFromUrl(url);
  const page = libraryPageFromUrl(url);
  const { images, hasMore } = await searchLibrary(site.db, actor, filter, page);
  return { images, hasMore, filter, page, canDelete: isEditor(actor) };
}

/**
 * One change per request, named by `intent` (details, focus, delete), or an upload of pictures (the
 * form with files, as the browser sends it without JavaScript); a refusal is shown above the grid with its status.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const room = site.newsroom;
  if (/^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")) {
    return answerForm(async () => ({
      done: text.uploaded(
        (
          await withSubmission(request, room.stagingDir, LIBRARY_UPLOAD_LIMITS, (upload) =>
            uploadLibraryImages(room, actor, upload),
          )
        ).length,
      ),
    }));
  }
  const form = await readSmallForm(request);
  const fields = Object.fromEntries(
    [...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"),
  );
  return answerForm(async () => ({ done: await changeLibraryImage(site.newsroom, actor, fields) }));
}

export const headers = () => NO_STORE;

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/media",
    title: `${text.title} | ${siteOf(matches).name}`,
    description: text.title,
    noindex: true,
    image: null,
  });
}

const field = "w-full min-w-0 rounded border border-stone-300 bg-white px-2 py-1.5";
const USE_LABEL: Record<MediaUseKind, string> = {
  cover: text.asCover,
  gallery: text.asGallery,
  body: text.asBody,
  poster: text.asPoster,
  "live-update": text.asLiveUpdate,
  revision: text.asRevision,
};
const dayOf = (iso: string) =>
  new Date(iso).toLocaleDateString("ar-LB", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

export default function MediaLibrary({ loaderData, actionData }: Route.ComponentProps) {
  const { images, hasMore, filter, page, canDelete } = loaderData;
  const done = actionData && "done" in actionData ? actionData.done : undefined;
  const refusal = errorOf(actionData);
  const filtered = filter.q !== "" || filter.uploader !== "" || filter.from !== null || filter.to !== null;
  return (
    <section aria-labelledby="media-title" className="space-y-6">
      <DashboardHeading id="media-title" title={text.title} />
      <p className="text-stone-600">{text.intro}</p>
      {refusal && <Notice tone="error">{Object.values(formMessagesOf(refusal))[0] ?? refusal.message}</Notice>}
      {done && <Notice tone="done">{done}</Notice>}
      <LibraryUpload />
      <Form
        method="get"
        className="grid gap-3 rounded-lg bg-white p-4 ring-1 ring-stone-200 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
        role="search"
      >
        <label className="text-sm font-bold">
          {text.search}
          <input name="q" type="search" defaultValue={filter.q} maxLength={100} className={field} />
        </label>
        <label className="text-sm font-bold">
          {text.uploader}
          <input name="uploader" defaultValue={filter.uploader} maxLength={100} className={field} />
        </label>
        <label className="text-sm font-bold">
          {text.from}
          <input name="from" type="date" defaultValue={filter.from ?? ""} className={field} />
        </label>
        <label className="text-sm font-bold">
          {text.to}
          <input name="to" type="date" defaultValue={filter.to ?? ""} className={field} />
        </label>
        <div className="flex items-end gap-2">
          <button type="submit" className={accountButton}>
            {text.apply}
          </button>
          {filtered && (
            <Link to="/dashboard/media" className="py-1.5 text-sm font-bold text-brand-700 hover:underline">
              {text.clear}
            </Link>
          )}
        </div>
      </Form>
      {images.length === 0 ? (
        <p className="rounded-lg bg-white p-6 text-stone-600 ring-1 ring-stone-200">
          {filtered ? text.noMatches : text.empty}
        </p>
      ) : (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3" data-testid="media-grid">
          {images.map((image) => (
            <LibraryCard key={image.url} image={image} canDelete={canDelete} />
          ))}
        </ul>
      )}
      {(page > 1 || hasMore) && (
        <nav className="flex justify-between" aria-label={text.title}>
          {page > 1 ? (
            <Link to={libraryPath(filter, page - 1)} className={accountButton}>
              {text.previous}
            </Link>
          ) : (
            <span />
          )}
          {hasMore && (
            <Link to={libraryPath(filter, page + 1)} className={accountButton}>
              {text.next}
            </Link>
          )}
        </nav>
      )}
    </section>
  );
}

function LibraryCard({ image, canDelete }: { image: LibraryEntry; canDelete: boolean }) {
  const focus = useFetcher();
  return (
    <li
      className="min-w-0 space-y-3 rounded-lg bg-white p-3 ring-1 ring-stone-200"
      data-testid="media-item"
      data-url={image.url}
    >
      <FocalPointPicker
        url={image.url}
        alt={image.alt}
        focal={image.focal}
        width={image.width}
        height={image.height}
        onPick={(point) =>
          focus.submit({ intent: "focus", url: image.url, x: String(point.x), y: String(point.y) }, { method: "post" })
        }
      />
      <div className="space-y-1 text-sm">
        {image.caption && <p className="font-bold break-words">{image.caption}</p>}
        {image.credit && <p className="break-words text-stone-600">{image.credit}</p>}
        <p className="text-stone-500">
          {text.uploadedBy}: {image.uploader ?? text.unknownUploader} ·{" "}
          <time dateTime={image.createdAt}>{dayOf(image.createdAt)}</time>
          {/* The separator stays in the Arabic line; only the size reads left to right, isolated from the date beside it. */}
          {image.width && image.height ? (
            <>
              {" "}
              ·{" "}
              <bdi dir="ltr" data-testid="media-size">
                {image.width}×{image.height}
              </bdi>
            </>
          ) : null}
        </p>
      </div>
      <div className="text-sm" data-testid="media-uses">
        {image.uses.length === 0 ? (
          <p className="text-stone-500">{text.unused}</p>
        ) : (
          <>
            <p className="font-bold">{text.usedIn}:</p>
            <ul className="list-inside list-disc">
              {image.uses.map((use) => (
                <li key={`${use.id}-${use.as}`} className="break-words">
                  <Link to={`/edit-news/${use.id}`} className="text-brand-700 hover:underline">
                    {use.title}
                  </Link>{" "}
                  <span className="text-stone-500">({USE_LABEL[use.as]})</span>
                </li>
              ))}
            </ul>
            {!inCurrentUse(image.uses) && <p className="mt-1 text-stone-500">{text.onlyInRevisions}</p>}
          </>
        )}
      </div>
      <details className="text-sm">
        <summary className="cursor-pointer font-bold">{text.details}</summary>
        <Form method="post" className="mt-2 space-y-2">
          <input type="hidden" name="intent" value="details" />
          <input type="hidden" name="url" value={image.url} />
          {(["alt", "caption", "credit"] as const).map((name) => (
            <label key={name} className="block">
              {imageDetailMessages[name]}
              <input name={name} defaultValue={image[name]} maxLength={IMAGE_DETAIL_MAX} className={field} />
            </label>
          ))}
          <button type="submit" className={accountButton}>
            {text.saveDetails}
          </button>
        </Form>
      </details>
      <div className="flex flex-wrap gap-2">
        {image.focal && (
          <Form method="post">
            <input type="hidden" name="intent" value="focus" />
            <input type="hidden" name="url" value={image.url} />
            <button type="submit" className={accountButton}>
              {text.focalReset}
            </button>
          </Form>
        )}
        {canDelete && !inCurrentUse(image.uses) && (
          <Form method="post">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="url" value={image.url} />
            <button type="submit" className={`${accountButton} text-brand-700`}>
              {text.delete}
            </button>
          </Form>
        )}
      </div>
    </li>
  );
}

type UploadState = { progress: number | null; error: string | null; done: string | null };

/**
 * Pictures straight into the library, several at once: a plain form with files that works without
 * JavaScript; with it, sent to the library's API so a progress bar follows the upload.
 */
function LibraryUpload() {
  const revalidator = useRevalidator();
  const [state, setState] = useState<UploadState>({ progress: null, error: null, done: null });
  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    setState({ progress: 0, error: null, done: null });
    try {
      const { status, json } = await sendWithProgress("/api/media/library", "POST", new FormData(element), (progress) =>
        setState((now) => ({ ...now, progress })),
      );
      const refusal = errorOf(json);
      if (status === 201 && json && typeof json === "object" && "urls" in json && Array.isArray(json.urls)) {
        element.reset();
        setState({ progress: null, error: null, done: text.uploaded(json.urls.length) });
        await revalidator.revalidate();
      } else {
        setState({
          progress: null,
          error: refusal ? (Object.values(formMessagesOf(refusal))[0] ?? refusal.message) : text.uploadFailed,
          done: null,
        });
      }
    } catch {
      setState({ progress: null, error: text.uploadFailed, done: null });
    }
  }
  const busy = state.progress !== null;
  return (
    <form
      method="post"
      encType="multipart/form-data"
      onSubmit={submit}
      aria-busy={busy}
      className="space-y-3 rounded-lg bg-white p-4 ring-1 ring-stone-200"
      data-testid="media-upload"
    >
      <h2 className="font-bold">{text.upload}</h2>
      <label className="block text-sm font-bold">
        {text.uploadField}
        <input
          name="images"
          type="file"
          multiple
          required
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          className={field}
          aria-describedby="media-upload-hint"
        />
      </label>
      <p id="media-upload-hint" className="text-sm text-stone-600">
        {text.uploadHint}
      </p>
      {busy && (
        <progress
          value={state.progress ?? 0}
          max={1}
          className="h-2 w-full accent-brand-600"
          aria-label={text.uploading}
        />
      )}
      <div aria-live="polite">
        {state.error && <Notice tone="error">{state.error}</Notice>}
        {state.done && <Notice tone="done">{state.done}</Notice>}
      </div>
      <button type="submit" disabled={busy} className={accountButton}>
        {busy ? text.uploading : text.uploadSubmit}
      </button>
    </form>
  );
}
