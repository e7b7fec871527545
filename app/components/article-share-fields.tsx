import type { ArticleFieldErrors } from "~/lib/article-schema";
import { FormField, input } from "./form-field";
import { storyMessages } from "~/lib/newsroom-messages";
import { SHARE_DESCRIPTION_MAX, SHARE_TITLE_MAX, SLUG_MAX, STANDFIRST_MAX, type StoryFields } from "~/lib/story-fields";

/* The story's own fields: the standfirst under the headline, and the form's standfirst and "share and search" group. */

/** The standfirst as readers see it, under the headline (article page and preview). */
export function Standfirst({ text }: { text: string | null }) {
  if (!text) return null;
  return (
    <p className="text-lg leading-relaxed font-medium text-stone-700 sm:text-xl" data-testid="standfirst">
      {text}
    </p>
  );
}

/** The form's standfirst, right under the title. */
export function StandfirstField({ value, error }: { value: string | null; error?: string }) {
  return (
    <FormField id="standfirst" label={storyMessages.standfirst} hint={storyMessages.standfirstHint} error={error}>
      {(describedBy) => (
        <textarea
          id="standfirst"
          name="standfirst"
          rows={2}
          maxLength={STANDFIRST_MAX}
          defaultValue={value ?? ""}
          className={input}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
        />
      )}
    </FormField>
  );
}

/**
 * The "share and search" group, closed unless it holds a value or an error: the readable address's
 * slug, share title, description and picture, and noindex.
 */
export function ShareAndSearchFields({ story, errors }: { story: StoryFields | null; errors: ArticleFieldErrors }) {
  const hasError = Boolean(
    errors.slug || errors.shareTitle || errors.shareDescription || errors.shareImage || errors.noindex,
  );
  const hasOverride = Boolean(
    story && (story.shareTitle || story.shareDescription || story.shareImage || story.noindex),
  );
  return (
    <details
      className="rounded border border-stone-300 bg-stone-50 p-4 open:space-y-4"
      open={hasError || hasOverride}
      data-testid="share-fields"
    >
      <summary className="cursor-pointer font-bold">{storyMessages.shareGroup}</summary>
      <FormField id="slug" label={storyMessages.slug} hint={storyMessages.slugHint} error={errors.slug}>
        {(describedBy) => (
          <input
            id="slug"
            name="slug"
            maxLength={SLUG_MAX * 2}
            defaultValue={story?.slug ?? ""}
            className={input}
            aria-invalid={errors.slug ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </FormField>
      <FormField
        id="shareTitle"
        label={storyMessages.shareTitle}
        hint={storyMessages.shareTitleHint}
        error={errors.shareTitle}
      >
        {(describedBy) => (
          <input
            id="shareTitle"
            name="shareTitle"
            maxLength={SHARE_TITLE_MAX}
            defaultValue={story?.shareTitle ?? ""}
            className={input}
            aria-invalid={errors.shareTitle ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </FormField>
      <FormField id="shareDescription" label={storyMessages.shareDescription} error={errors.shareDescription}>
        {(describedBy) => (
          <textarea
            id="shareDescription"
            name="shareDescription"
            rows={2}
            maxLength={SHARE_DESCRIPTION_MAX}
            defaultValue={story?.shareDescription ?? ""}
            className={input}
            aria-invalid={errors.shareDescription ? true : undefined}
            aria-describedby={describedBy}
          />
        )}
      </FormField>
      <FormField
        id="shareImage"
        label={storyMessages.shareImage}
        hint={storyMessages.shareImageHint}
        error={errors.shareImage}
      >
        {(describedBy) => (
          <>
            {story?.shareImage && (
              <div className="mb-2 flex flex-wrap items-center gap-3">
                <img
                  src={story.shareImage}
                  alt={storyMessages.shareImageCurrent}
                  width={240}
                  height={126}
                  className="aspect-[1200/630] w-60 rounded object-cover"
                />
                <label className="flex items-center gap-2 text-sm">
                  <input type="checkbox" name="removeShareImage" value="on" />
                  {storyMessages.removeShareImage}
                </label>
              </div>
            )}
            <input
              id="shareImage"
              name="shareImage"
              type="file"
              accept="image/jpeg,image/png,image/webp,image/avif,image/gif"
              className={input}
              aria-describedby={describedBy}
            />
          </>
        )}
      </FormField>
      <div>
        <label className="flex items-center gap-2 font-bold">
          <input
            type="checkbox"
            name="noindex"
            value="on"
            defaultChecked={story?.noindex ?? false}
            aria-describedby="noindex-hint"
          />
          {storyMessages.noindex}
        </label>
        <p id="noindex-hint" className="mt-1 text-sm text-stone-500">
          {storyMessages.noindexHint}
        </p>
      </div>
    </details>
  );
}
