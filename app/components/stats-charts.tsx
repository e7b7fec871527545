import { statsMessages as m } from "~/lib/newsroom-messages";

const number = (n: number) => n.toLocaleString("ar-LB");

type Point = { label: string; views: number; readers: number | null };

/* Drawn 320 units wide, about a phone's card, so its 12-unit labels stay legible at 375 px; no wider than 28rem on a desktop. */
const W = 320;
const H = 180;
const PAD = { top: 12, bottom: 28, side: 34 };
const MAX_LABELS = 6;

/** The top of the scale: a round number with a whole half, so the three gridlines read as whole counts. */
function niceMax(value: number): number {
  if (value <= 2) return 2;
  const step = 10 ** Math.floor(Math.log10(value));
  const top = Math.ceil(value / step) * step;
  return (top / step) % 2 === 0 ? top : top + step;
}

/**
 * Views as columns and readers as a line over time, in plain SVG: right to left like the page, so the
 * latest period is at the left end. Labels are Arabic; the numbers are also in the table below it.
 */
export function TimeChart({ points, title }: { points: Point[]; title: string }) {
  const max = niceMax(Math.max(1, ...points.map((p) => Math.max(p.views, p.readers ?? 0))));
  const plotW = W - PAD.side - 6;
  const plotH = H - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, points.length);
  // Right to left: the first period at the right edge.
  const xOf = (i: number) => W - PAD.side - (i + 0.5) * slot;
  const yOf = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const every = Math.ceil(points.length / MAX_LABELS);
  const bar = Math.min(slot * 0.7, 24);
  const readers = points.every((p) => p.readers !== null)
    ? points.map((p, i) => `${xOf(i).toFixed(1)},${yOf(p.readers ?? 0).toFixed(1)}`).join(" ")
    : null;
  return (
    <figure className="space-y-2">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        className="h-auto w-full max-w-md"
        role="img"
        aria-label={m.chartOf(title)}
        data-testid="time-chart"
      >
        {[0, 0.5, 1].map((f) => (
          <g key={f}>
            <line
              x1={6}
              x2={W - PAD.side}
              y1={yOf(max * f)}
              y2={yOf(max * f)}
              className="stroke-stone-200"
              strokeWidth={1}
            />
            <text x={W - PAD.side + 4} y={yOf(max * f) + 4} className="fill-stone-500" fontSize={12} textAnchor="start">
              {number(max * f)}
            </text>
          </g>
        ))}
        {points.map((p, i) => (
          <rect
            key={i}
            x={xOf(i) - bar / 2}
            width={bar}
            y={yOf(p.views)}
            height={Math.max(0, yOf(0) - yOf(p.views))}
            className="fill-brand-600"
            data-views={p.views}
          >
            <title>{`${p.label}: ${number(p.views)} ${m.views}`}</title>
          </rect>
        ))}
        {readers && <polyline points={readers} fill="none" className="stroke-amber-500" strokeWidth={2} />}
        {points.map((p, i) =>
          i % every === 0 ? (
            <text key={i} x={xOf(i)} y={H - 10} fontSize={12} textAnchor="middle" className="fill-stone-600">
              {p.label}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption className="flex gap-4 text-sm text-stone-600">
        <span className="flex items-center gap-1">
          <svg width="12" height="12" aria-hidden="true">
            <rect width="12" height="12" className="fill-brand-600" />
          </svg>
          {m.views}
        </span>
        {readers && (
          <span className="flex items-center gap-1">
            <svg width="12" height="12" aria-hidden="true">
              <rect y="5" width="12" height="2" className="fill-amber-500" />
            </svg>
            {m.readers}
          </span>
        )}
      </figcaption>
    </figure>
  );
}

export type BarRow = { key: string; label: string; views: number; href?: string };

/** A ranked list with a bar per row, its length its share of the largest. */
export function BarList({ rows, testId }: { rows: BarRow[]; testId: string }) {
  const max = Math.max(1, ...rows.map((r) => r.views));
  if (rows.length === 0) return <p className="text-sm text-stone-500">{m.empty}</p>;
  return (
    <ol className="space-y-2" data-testid={testId}>
      {rows.map((row) => (
        <li key={row.key} data-key={row.key} className="space-y-1">
          <div className="flex items-baseline justify-between gap-3 text-sm">
            {row.href ? (
              <a href={row.href} className="min-w-0 break-words text-brand-700 hover:underline">
                {row.label}
              </a>
            ) : (
              <span className="min-w-0 break-words">{row.label}</span>
            )}
            <span className="shrink-0 font-bold" data-views={row.views}>
              {number(row.views)}
            </span>
          </div>
          <svg viewBox="0 0 100 4" preserveAspectRatio="none" className="block h-1.5 w-full" aria-hidden="true">
            <rect x={0} width={100} height={4} className="fill-stone-100" />
            <rect
              x={100 - (row.views / max) * 100}
              width={(row.views / max) * 100}
              height={4}
              className="fill-brand-600"
            />
          </svg>
        </li>
      ))}
    </ol>
  );
}
