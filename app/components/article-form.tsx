import { useRef, useState } from "react";
import { useNavigate } from "react-router";
import { TITLE_MAX, URL_MAX, type ArticleFieldErrors } from "~/lib/article-schema";
import { BYLINE_MAX } from "~/lib/bylines";
import { CATEGORIES, categoryLabel, type Category } from "~/lib/categories";
import { errorOf, formMessagesOf } from "~/lib/error-body";
import { editorMessages, messages } from "~/lib/messages";
import type { RichDocument } from "~/lib/rich-text/document";
import { articlePath, type ChosenStatus, type NewsArticle } from "~/lib/news";
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

/** `statuses`: what the signed-in member may choose (permissions.ts statusesFor). */
type Common = { action: string; apiUrl: string; statuses: readonly ChosenStatus[]; errors?: ArticleFieldErrors; savedPath?: string; topics: { names: readonly string[]; mayCreate: boolean } };
type Props =
  | (Common & { mode: "create"; submissionId: string; article?: undefined })
  | (Common & { mode: "edit"; article: NewsArticle; submissionId?: undefined });

const STATUS_CHOICES: Record<ChosenStatus, string> = {
  published: `${messages.statusPublishNow} (${messages.statusPublished})`,
  draft: `${messages.statusSaveDraft} (${messages.statusDraft})`,
  review: `${messages.statusSubmitReview} (${messages.statusReview})`,
  scheduled: `${messages.statusSchedule} (${messages.statusScheduled})`,
};

const EMPTY_BODY: RichDocument = { type: "doc", content: [] };

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
  const autosave = useAutosave(form, { articleId: article?.id ?? null, enabled: !article || article.status === "draft", submissionId: props.submissionId });

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const element = event.currentTarget;
    setErrors({});
    setProgress(0);
    const failed = props.mode === "create" ? messages.publishFailed : messages.updateFailed;
    try {
      // Once autosave has made a draft of a new article, the form saves into it (waiting for a save under way).
      const draftId = await autosave.pause();
      const draftUrl = draftId && `/api/news/${encodeURIComponent(draftId)}`;
      const fields = new FormData(element);
      // The time field stays in the form, hidden, while another status is chosen: the API takes a time only with "scheduled".
      if (fields.get("status") !== "scheduled") fields.delete("publishAt");
      // Saving into the draft autosave made is an edit: the submission id did its work when the draft was created.
      if (draftUrl) fields.delete("submissionId");
      const { status, json } = await sendWithProgress(draftUrl || props.apiUrl, (draftUrl || props.mode === "edit") ? "PUT" : "POST", fields, setProgress);
      const body = (json ?? {}) as { id?: string };
      if (status >= 200 && status < 300 && body.id) {
        autosave.markSaved();
        if (props.mode === "edit") {
          window.alert(messages.updateSucceeded);
          navigate(props.savedPath ?? articlePath(body.id));
        } else {
          navigate(`/dashboard?saved=${encodeURIComponent(body.id)}`);
        }
        return;
      }
      autosave.resume();
      const error = errorOf(json);
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
      <FormField id="title" label={messages.fieldTitle} error={errors.title}>
        <input id="title" name="title" required maxLength={TITLE_MAX} defaultValue={article?.title} className={input} aria-invalid={errors.title ? true : undefined} aria-describedby={describedBy("title")} />
      </FormField>
      <StandfirstField value={article?.story.standfirst ?? null} error={errors.standfirst} />
      <RichTextField name="body" label={messages.fieldContent} hint={editorMessages.shortcutsHint} defaultValue={article?.body ?? EMPTY_BODY} error={errors.content ?? errors.body} />
      <FormField id="byline" label={messages.fieldByline} hint={messages.fieldBylineHint} error={errors.byline}>
        <input id="byline" name="byline" maxLength={BYLINE_MAX} defaultValue={article?.byline ?? ""} className={input} aria-invalid={errors.byline ? true : undefined} aria-describedby={describedBy("byline") ?? "byline-hint"} />
      </FormField>
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="category" label={messages.fieldCategory} error={errors.category}>
          <select id="category" name="category" required defaultValue={article?.category ?? ("local" satisfies Category)} className={input}>
            {CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {categoryLabel(category)}
              </option>
            ))}
          </select>
        </FormField>
        <fieldset aria-describedby={describedBy("status")}>
          <legend className="mb-1 font-bold">{messages.fieldStatus}</legend>
          <div className="flex flex-wrap gap-x-4 gap-y-2 py-2">
            {props.statuses.map((status) => (
              <label key={status} className="flex items-center gap-2">
                <input type="radio" name="status" value={status} defaultChecked={status === initialStatus(props.statuses, article?.status)} />
                {STATUS_CHOICES[status]}
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
      <TopicField names={props.topics.names} mayCreate={props.topics.mayCreate} error={errors.topics} className={input} />
      {props.statuses.includes("scheduled") && <PublishAtField publishAt={article?.publishAt ?? null} error={errors.publishAt} className={input} />}
      <ArticleImagesField images={article?.images ?? []} details={article?.imageDetails ?? {}} error={errors.imageDetails} />
      <FormField id="images" label={messages.fieldImages} hint={messages.fieldImagesHint} error={errors.images}>
        <input id="images" name="images" type="file" multiple accept="image/jpeg,image/png,image/webp,image/avif,image/gif" className={input} aria-describedby={describedBy("images") ?? "images-hint"} />
      </FormField>
      {props.mode === "edit" && (
        <FormField id="imageUrl" label={messages.fieldImageUrl} error={errors.imageUrl}>
          <input id="imageUrl" name="imageUrl" type="url" dir="ltr" maxLength={URL_MAX} defaultValue={article?.imageUrl ?? ""} className={input} aria-describedby={describedBy("imageUrl")} />
        </FormField>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <FormField id="video" label={messages.fieldVideoFile} hint={messages.fieldVideoHint} error={errors.video}>
          <input id="video" name="video" type="file" accept="video/mp4,video/webm" className={input} aria-describedby={describedBy("video") ?? "video-hint"} />
        </FormField>
        <FormField id="videoUrl" label={messages.fieldVideoUrl} error={errors.videoUrl}>
          <input id="videoUrl" name="videoUrl" type="url" dir="ltr" maxLength={URL_MAX} defaultValue={localVideo ? "" : (article?.video ?? "")} className={input} aria-describedby={describedBy("videoUrl")} />
          {localVideo && (
            <label className="mt-2 flex items-center gap-2 text-sm">
              <input type="checkbox" name="removeVideo" value="on" />
              {messages.removeVideo}
            </label>
          )}
        </FormField>
      </div>
      {article?.video && videoSource(article.video)?.kind === "file" && <VideoPosterField articleId={article.id} video={article.video} poster={article.videoPoster} />}
      <ShareAndSearchFields story={article?.story ?? null} errors={errors} />
      {errors.form && (
        <p role="alert" className="rounded border border-brand-600/30 bg-brand-50 p-3 font-bold text-brand-800">
          {errors.form}
        </p>
      )}
      {busy && (
        <div>
          <p className="mb-1 text-sm">{messages.uploading}</p>
          <progress value={progress} max={1} className="h-2 w-full accent-brand-600" aria-label={messages.uploading} />
        </div>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={busy} className="rounded bg-brand-600 px-8 py-2.5 font-bold text-white hover:bg-brand-700 disabled:opacity-60">
          {props.mode === "create" ? messages.publishSubmit : messages.saveSubmit}
        </button>
        <PreviewButton form={form} articleId={autosave.draftId} className="rounded border border-stone-300 bg-white px-5 py-2.5 font-bold hover:bg-stone-100" />
      </div>
      <AutosaveStatus autosave={autosave} />
    </form>
  );
}
