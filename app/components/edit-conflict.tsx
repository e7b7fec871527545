import type { Difference } from "~/lib/edit-conflict";
import { conflictMessages } from "~/lib/newsroom-messages";

export type ConflictChoice = "mine" | "theirs" | "merge";

const button = "rounded border px-4 py-2 font-bold";

function Side({ label, value, images }: { label: string; value: string; images?: string[] }) {
  return (
    <div className="min-w-0 rounded border border-stone-200 bg-white p-2">
      <p className="mb-1 text-xs font-bold text-stone-500">{label}</p>
      {images && images.length > 0 && (
        <ul className="mb-1 flex flex-wrap gap-1">
          {images.map((src) => (
            <li key={src}>
              {src.startsWith("/") || src.startsWith("http") ? (
                <img src={src} alt="" className="h-12 w-16 rounded object-cover" loading="lazy" />
              ) : (
                <span className="block max-w-40 truncate text-xs">{src}</span>
              )}
            </li>
          ))}
        </ul>
      )}
      <p className="max-h-48 overflow-auto whitespace-pre-wrap break-words text-sm">
        {value || conflictMessages.empty}
      </p>
    </div>
  );
}

/**
 * The form's save was refused because the story was saved since: each field that differs, mine beside
 * theirs, and the three ways on: keep mine, take theirs, merge by hand (the form stays editable, with
 * theirs beside it and a button per plain field to take theirs).
 */
export function EditConflict({
  differences,
  merging,
  onChoose,
  onUseTheirs,
}: {
  differences: Difference[];
  merging: boolean;
  onChoose: (choice: ConflictChoice) => void;
  onUseTheirs: (difference: Difference) => void;
}) {
  return (
    <section
      aria-labelledby="conflict-title"
      data-testid="edit-conflict"
      className="space-y-3 rounded-lg border-2 border-amber-500 bg-amber-50 p-4"
    >
      <h2 id="conflict-title" className="text-lg font-bold">
        {conflictMessages.title}
      </h2>
      <p>{differences.length > 0 ? conflictMessages.intro : conflictMessages.noDifferences}</p>
      <ul className="space-y-3">
        {differences.map((difference) => (
          <li key={difference.field} data-testid={`conflict-${difference.field}`}>
            <div className="mb-1 flex flex-wrap items-center justify-between gap-2">
              <h3 className="font-bold">{conflictMessages.fields[difference.field]}</h3>
              {merging && difference.name && (
                <button
                  type="button"
                  className="rounded border border-stone-300 bg-white px-2 py-1 text-sm hover:bg-stone-100"
                  onClick={() => onUseTheirs(difference)}
                >
                  {conflictMessages.useTheirs}
                </button>
              )}
            </div>
            <div className="grid gap-2 sm:grid-cols-2">
              <Side label={conflictMessages.mine} value={difference.mine} images={difference.images?.mine} />
              <Side label={conflictMessages.theirs} value={difference.theirs} images={difference.images?.theirs} />
            </div>
          </li>
        ))}
      </ul>
      {merging ? (
        <p className="font-bold">{conflictMessages.mergeHint}</p>
      ) : (
        <div className="flex flex-wrap gap-2">
          <button
            type="button"
            className={`${button} border-brand-600 bg-brand-600 text-white hover:bg-brand-700`}
            onClick={() => onChoose("mine")}
          >
            {conflictMessages.keepMine}
          </button>
          <button
            type="button"
            className={`${button} border-stone-300 bg-white hover:bg-stone-100`}
            onClick={() => onChoose("theirs")}
          >
            {conflictMessages.takeTheirs}
          </button>
          <button
            type="button"
            className={`${button} border-stone-300 bg-white hover:bg-stone-100`}
            onClick={() => onChoose("merge")}
          >
            {conflictMessages.mergeByHand}
          </button>
        </div>
      )}
    </section>
  );
}
