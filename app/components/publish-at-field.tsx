import { newsroomMessages } from "~/lib/newsroom-messages";
import { isoToBeirutWallTime } from "~/lib/publish-time";

type Props = { publishAt: string | null; error?: string; className: string };

/**
 * The publish time of a scheduled article, a wall time in Beirut (the server turns it into UTC). It is
 * shown only while "مجدول" is chosen: the form's `group` class and :has() decide, with or without JavaScript.
 */
export function PublishAtField({ publishAt, error, className }: Props) {
  return (
    <div
      className="hidden group-has-[input[name=status][value=scheduled]:checked]:block"
      data-testid="publish-at-field"
    >
      <label htmlFor="publishAt" className="mb-1 block font-bold">
        {newsroomMessages.publishAt}
      </label>
      <input
        id="publishAt"
        name="publishAt"
        type="datetime-local"
        step={1}
        dir="ltr"
        defaultValue={publishAt ? isoToBeirutWallTime(publishAt) : undefined}
        className={`${className} sm:max-w-xs`}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "publishAt-error" : undefined}
      />
      {error && (
        <p id="publishAt-error" className="mt-1 text-sm font-bold text-brand-700">
          {error}
        </p>
      )}
    </div>
  );
}
