import type { ReactNode } from "react";

export type Row = { key: string | number; title: string; details: ReactNode; actions: ReactNode };

/** Rows of a title, a line of details and their actions (an article's revisions, the trash); `empty` says there are none. */
export function RowList({
  rows,
  empty,
  testId,
  rowTestId,
}: {
  rows: Row[];
  empty: string;
  testId: string;
  rowTestId: string;
}) {
  if (rows.length === 0) return <p className="py-3 text-stone-600">{empty}</p>;
  return (
    <ol className="divide-y divide-stone-200" data-testid={testId}>
      {rows.map((row) => (
        <li
          key={row.key}
          className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center sm:justify-between"
          data-testid={rowTestId}
        >
          <div className="min-w-0 space-y-1">
            <p className="font-bold break-words">{row.title}</p>
            <p className="text-sm text-stone-600">{row.details}</p>
          </div>
          <div className="flex shrink-0 flex-wrap gap-2">{row.actions}</div>
        </li>
      ))}
    </ol>
  );
}
