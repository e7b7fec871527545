import { AlertField } from "./alert-field";
import { useRef, useState } from "react";
import { useNavigate, useRevalidator } from "react-router";
import { TITLE_MAX, URL_MAX, type ArticleFieldErrors } from "~/lib/article-schema";
import { BYLINE_MAX } from "~/lib/bylines";
import { CATEGORIES, categoryLabel, type Category } from "~/lib/categories";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { messages } from "~/lib/messages";
import { conflictMessages, editorMessages, newsroomMessages } from "~/lib/newsroom-messages";
import { currentOfConflict, differences, type Difference, type SavedStory } from "~/lib/edit-conflict";
import type { RichDocument } from "~/lib/rich-text/document";
import { articleIdPath, type ChosenStatus, type NewsArticle } from "~/lib/news";
import { sendWithProgress } from "~/lib/upload-client";
import { videoSource } from "~/lib/video";
import { ArticleImagesField } from "./article-images-field";
import { VideoPosterField } from "./video-poster-field";
import { FormField, input } from "./form-field";
import { RichTextField } from "./rich-text-field";
import { PublishAtField } from "./publish-at-field";
import { AutosaveStatus, PreviewButton, useAutosave } from "./autosave";
import { TopicField } from "./topic-field";
import { ShareAndSearchFields, StandfirstField } from "./article-share-fields";
import { BodyStats } from "./body-stats";
import { EditConflict, type ConflictChoice } from "./edit-conflict";

/** `statuses`: what the signed-in member may choose (permissions.ts statusesFor). */
/** `alerts`: the member may ask for a Web Push alert (permissions.ts canSendAlerts). */
type Common = {
  action: string;
  apiUrl: string;
  statuses: readonly ChosenStatus[];
  alerts?: boolean;
  errors?: ArticleFieldErrors;
  savedPath?: string;
  topics: { names: readonly string[]; mayCreate: boolean };
};
type Props =
  | (Common & { mode: "create"; submissionId: string; article?: undefined })
  | (Common & { mode: "edit"; article: NewsArticle; submissionId?: undefined });

const STATUS_CHOICES: Record<ChosenStatus, string> = {
  published: `${newsroomMessages.statusPublishNow} (${newsroomMessages.statusPublished})`,
  draft: `${newsroomMessages.statusSaveDraft} (${newsroomMessages.statusDraft})`,
  review: `${newsroomMessages.statusSubmitReview} (${newsroomMessages.statusReview})`,
  scheduled: `${newsroomMessages.statusSchedule} (${newsroomMessages.statusScheduled})`,
};

const EMPTY_BODY: RichDocument = { type: "doc", content: [] };

/** What the submit button does with the status chosen: in an edit that keeps the status, it saves the changes. */
function submitLabel(status: ChosenStatus, current: string | undefined): string {
  if (status === current) return newsroomMessages.saveSubmit;
  const labels: Record<ChosenStatus, string> = {
    published: newsroomMessages.publishSubmit,
    draft: conflictMessages.submitDraft,
    review: conflictMessages.submitReview,
    scheduled: conflictMessages.submitSchedule,
  };
  return labels[status];
}

/** The story as saved now, or null when it cannot be read. */
async function savedStory(id: string): Promise<SavedStory | null> {
  const response = await fetch(`/api/news/${encodeURIComponent(id)}`, {
    headers: { Accept: "application/json" },
  }).catch(() => null);
  return response?.ok ? ((await response.json()) as SavedStory) : null;
}

/** The status checked at first: the article's own when the member may keep it, else publishing for editors, a draft for authors. */
function initialStatus(statuses: readonly ChosenStatus[], current: string | undefined): ChosenStatus {
  const kept = statuses.find((status) => status === current);
  return kept ?? (statuses.includes("published") ? "published" : "draft");
}

/**
 * The publishing and edit form. It posts as a plain multipart form without JavaScript; with it, the
 * same fields go to the admin API through XHR so a progress bar can follow the upload.
 */
export function ArticleForm(props: Props) {
  const { article } = props;
  const navigate = useNavigate();
  const form = useRef<HTMLFormElement>(null);
  const [errors, setErrors] = useState<ArticleFieldErrors>(props.errors ?? {});
  const [progress, setProgress] = useState<number | null>(null);
  const localVideo = article?.video?.startsWith("/media/") ? article.video : null;
  const savedVideo = videoSource(article?.video ?? null);
  const revalidator = useRevalidator();
  // The version the next save is based on: the one the form opened on, then each of its own saves'.
  const baseVersion = useRef<number | undefined>(article?.version);
  const [status, setStatus] = useState(() => initialStatus(props.statuses, article?.status));
  const [conflict, setConflict] = useState<{ differences: Difference[]; theirs: SavedStory; merging: boolean } | null>(
    null,
  );
  const autosave = useAutosave(form, {
    articleId: article?.id ?? null,
    enabled: !article || article.status === "draft",
    submissionId: props.submissionId,
    baseVersion,
    onConflict: (id, current) => void showConflict(id, current),
  });

  /** Another save came first: the differences between the form and the story as saved now (as the refusal carried it, or read again). */
  async function showConflict(id: string, current?: SavedStory) {
    const element = form.current;
    const theirs = current ?? (await savedStory(id));
    if (!element || !theirs) {
      setErrors({ form: conflictMessages.loadFailed });
      return;
    }
    setErrors({ form: conflictMessages.refused });
    setConflict({
      differences: differences(new FormData(element), { video: article?.video ?? null }, theirs),
      theirs,
      merging: false,
    });
    window.requestAnimationFrame(() => document.getElementById("conflict-title")?.scrollIntoView({ block: "start" }));
  }

  function choose(choice: ConflictChoice) {
    if (!conflict) return;
    if (choice === "theirs") {
      // The form is read again from the story as saved now (the page remounts it on the new version).
      autosave.markSaved();
      if (props.mode === "edit") void revalidator.revalidate();
      else navigate(`/edit-news/${encodeURIComponent(conflict.theirs.id)}`);
      return;
    }
    baseVersion.current = conflict.theirs.version;
    if (choice === "mine") {
      setConflict(null);
      form.current?.requestSubmit();
    } else {
      setConflict({ ...conflict, merging: true });
    }
  }

  function takeTheirsField(difference: Difference) {
    const field = form.current?.elements.namedItem(difference.name ?? "");
    if (field instanceof RadioNodeList) field.value = difference.value ?? "";
    else if (
      field instanceof HTMLInputElement ||
      field instanceof HTMLTextAreaElement ||
      field instanceof HTMLSelectElement
    )
      field.value = difference.value ?? "";
    if (difference.name === "status") setStatus(difference.value as ChosenStatus);
    form.current?.dispatchEvent(new Event("input", { bubbles: true }));
  }

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    setErrors({});
    setProgress(0);
    const failed = props.mode === "create" ? newsroomMessages.publishFailed : newsroomMessages.updateFailed;
    try {
      // Once autosave has made a draft of a new article, the form saves into it (waiting for a save under way).
      const draftId = await autosave.pause();
      const draftUrl = draftId && `/api/news/${encodeURIComponent(draftId)}`;
      const fields = new FormData(element);
      if (baseVersion.current !== undefined) fields.set("baseVersion", String(baseVersion.current));
      else fields.delete("baseVersion");
      // The time field stays in the form, hidden, while another status is chosen: the API takes a time only with "scheduled".
      if (fields.get("status") !== "scheduled") fields.delete("publishAt");
      // Saving into the draft autosave made is an edit: the submission id did its work when the draft was created.
      if (draftUrl) fields.delete("submissionId");
      const { status: code, json } = await sendWithProgress(
        draftUrl || props.apiUrl,
        draftUrl || props.mode === "edit" ? "PUT" : "POST",
        fields,
        setProgress,
      );
      const body = (json ?? {}) as { id?: string };
      if (code >= 200 && code < 300 && body.id) {
        setConflict(null);
        autosave.markSaved();
        if (props.mode === "edit") {
          window.alert(messages.updateSucceeded);
          navigate(props.savedPath ?? articleIdPath(body.id));
        } else {
          navigate(`/dashboard?saved=${encodeURIComponent(body.id)}`);
        }
        return;
      }
      const error = errorOf(json);
      // Autosave stays paused: it would be refused too until the conflict is settled.
      if (error?.code === "edit-conflict")
        return void (await showConflict(draftId || article!.id, currentOfConflict(json)));
      autosave.resume();
      setErrors(error ? formMessagesOf(error) : { form: failed });
      window.alert(failed);
    } catch {
      autosave.resume();
      setErrors({ form: failed });
      window.alert(failed);
    } finally {
      setProgress(null);
    }
  }

  const describedBy = (field: keyof ArticleFieldErrors) => (errors[field] ? `${field}-error` : undefined);
  const busy = progress !== null;

  return (
    <form
      ref={form}
      method="post"
      action={props.action}
      encType="multipart/form-data"
      onSubmit={submit}
      className="group space-y-5"
      aria-busy={busy}
      data-testid="article-form"
    >
      {props.mode === "create" && <input type="hidden" name="submissionId" defaultValue={props.submissionId} />}
      {article && <input type="hidden" name="baseVersion" defaultValue={article.version} />}
      <FormField id="title" label={newsroomMessages.fieldTitle} error={errors.title}>
        <input
          id="title"
          name="title"
          required
          maxLength={TITLE_MAX}
          defaultValue={article?.title}
          className={input}
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={describedBy("title")}
        />
      </FormField>
      <StandfirstField value={article?.story.standfirst ?? null} error={errors.standfirst} />
      <RichTextField
        name="body"
        label={newsroomMessages.fieldContent}
        hint={editorMessages.shortcutsHint}
        defaultValue={article?.body ?? EMPTY_BODY}
        error={errors.content ?? errors.body}
      />
      <BodyStats form={form} />
      <FormField
        id="byline"
        label={newsroomMessages.fieldByline}
        hint={newsroomMessages.fieldBylineHint}
        error={errors.byline}
      >
        <input
          id="byline"
          name="byline"
          maxLength={BYLINE_MAX}
          defaultValue={article?.byline ?? ""}
          className={input}
          aria-invalid={errors.byline ? true : undefined}
          aria-describedby={describedBy("byline") ?? "byline-hint"}
        />
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="category" label={newsroomMessages.fieldCategory} error={errors.category}>
          <select
            id="category"
            name="category"
            required
            defaultValue={article?.category ?? ("local" satisfies Category)}
            className={input}
          >
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {categoryLabel(category)}
              </option>
            ))}
          </select>
        </FormField>
        <fieldset aria-describedby={describedBy("status")}>
          <legend className="mb-1 font-bold">{newsroomMessages.fieldStatus}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2 py-2">
            {props.statuses.map((choice) => (
              <label key={choice} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="status"
                  value={choice}
                  defaultChecked={choice === initialStatus(props.statuses, article?.status)}
                  onChange={() => setStatus(choice)}
                />
                {STATUS_CHOICES[choice]}
              </label>
            ))}
          </div>
          {errors.status && (
            <p id="status-error" className="mt-1 text-sm font-bold text-brand-700">
              {errors.status}
            </p>
          )}
        </fieldset>
      </div>
      <TopicField
        names={props.topics.names}
        mayCreate={props.topics.mayCreate}
        error={errors.topics}
        className={input}
      />
      {props.alerts && <AlertField error={errors.sendAlert} />}
      {props.statuses.includes("scheduled") && (
        <PublishAtField publishAt={article?.publishAt ?? null} error={errors.publishAt} className={input} />
      )}
      <ArticleImagesField
        images={article?.images ?? []}
        details={article?.imageDetails ?? {}}
        error={errors.imageDetails}
      />
      <FormField
        id="images"
        label={newsroomMessages.fieldImages}
        hint={newsroomMessages.fieldImagesHint}
        error={errors.images}
      >
        <input
          id="images"
          name="images"
          type="file"
          multiple
          accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
          className={input}
          aria-describedby={describedBy("images") ?? "images-hint"}
        />
      </FormField>
      {props.mode === "edit" && (
        <FormField id="imageUrl" label={newsroomMessages.fieldImageUrl} error={errors.imageUrl}>
          <input
            id="imageUrl"
            name="imageUrl"
            type="url"
            dir="ltr"
            maxLength={URL_MAX}
            defaultValue={article?.imageUrl ?? ""}
            className={input}
            aria-describedby={describedBy("imageUrl")}
          />
        </FormField>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField
          id="video"
          label={newsroomMessages.fieldVideoFile}
          hint={newsroomMessages.fieldVideoHint}
          error={errors.video}
        >
          <input
            id="video"
            name="video"
            type="file"
            accept="video/mp4,video/webm"
            className={input}
            aria-describedby={describedBy("video") ?? "video-hint"}
          />
        </FormField>
        <FormField id="videoUrl" label={newsroomMessages.fieldVideoUrl} error={errors.videoUrl}>
          <input
            id="videoUrl"
            name="videoUrl"
            type="url"
            dir="ltr"
            maxLength={URL_MAX}
            defaultValue={localVideo ? "" : (article?.video ?? "")}
            className={input}
            aria-describedby={describedBy("videoUrl")}
          />
          {localVideo && (
            <label className="mt-2 flex items-center gap-2 text-sm">
              <input type="checkbox" name="removeVideo" value="on" />
              {newsroomMessages.removeVideo}
            </label>
          )}
        </FormField>
      </div>
      {article?.video && savedVideo && (
        <VideoPosterField
          articleId={article.id}
          video={article.video}
          youtube={savedVideo.kind === "youtube"}
          poster={article.videoPoster}
        />
      )}
      <ShareAndSearchFields story={article?.story ?? null} errors={errors} />
      {errors.form && (
        <p role="alert" className="rounded border border-brand-600/30 bg-brand-50 p-3 font-bold text-brand-800">
          {errors.form}
        </p>
      )}
      {conflict && (
        <EditConflict
          differences={conflict.differences}
          merging={conflict.merging}
          onChoose={choose}
          onUseTheirs={takeTheirsField}
        />
      )}
      {busy && (
        <div>
          <p className="mb-1 text-sm">{newsroomMessages.uploading}</p>
          <progress
            value={progress}
            max={1}
            className="h-2 w-full accent-brand-600"
            aria-label={newsroomMessages.uploading}
          />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button
          type="submit"
          disabled={busy}
          className="rounded bg-brand-600 px-8 py-2.5 font-bold text-white hover:bg-brand-700 disabled:opacity-60"
        >
          {submitLabel(status, article?.status)}
        </button>
        <PreviewButton
          form={form}
          articleId={autosave.draftId}
          className="rounded border border-stone-300 bg-white px-5 py-2.5 font-bold hover:bg-stone-100"
        />
      </div>
      <AutosaveStatus autosave={autosave} />
    </form>
  );
}
