import { statsMessages as m } from "~/lib/newsroom-messages";
import { sourceLabel } from "~/lib/stats-labels";
import { BarList, TimeChart } from "./stats-charts";

type StoryStats = {
  total: number;
  hourly: boolean;
  series: { period: string; label: string; views: number }[];
  sources: { key: string; label: string; views: number }[];
};

/** A story's own readers on its edit page: its curve since publication and where its readers came from. */
export function StoryStatsPanel({ stats }: { stats: StoryStats | null }) {
  return (
    <section
      aria-labelledby="story-stats-title"
      className="mx-auto mt-6 max-w-3xl space-y-4 rounded-lg bg-white p-6 shadow-sm ring-1 ring-stone-200"
      data-testid="story-stats"
    >
      <h2 id="story-stats-title" className="text-xl font-bold">
        {m.storyPanel}
      </h2>
      {stats === null ? (
        <p className="text-stone-600">{m.storyNotPublished}</p>
      ) : (
        <>
          <p>
            <span className="text-2xl font-bold" data-testid="story-views">
              {stats.total.toLocaleString("ar-LB")}
            </span>{" "}
            <span className="text-stone-600">{m.views}</span>
          </p>
          <h3 className="font-bold">{`${m.storyCurve} (${stats.hourly ? m.byHour : m.byDay})`}</h3>
          <TimeChart points={stats.series.map((p) => ({ ...p, readers: null }))} title={m.storyCurve} />
          <h3 className="font-bold">{m.sources}</h3>
          <BarList
            testId="story-sources"
            rows={stats.sources.map((row) => ({ ...row, label: sourceLabel(row.key) }))}
          />
        </>
      )}
    </section>
  );
}
