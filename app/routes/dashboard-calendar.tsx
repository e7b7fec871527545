import { Link } from "react-router";
import { DashboardHeading } from "~/components/dashboard-heading";
import { dashboardButton } from "~/components/dashboard-filters";
import {
  dayLabel,
  daysIn,
  monthOf,
  monthParam,
  monthTitle,
  parseMonth,
  shiftMonth,
  weekdayIndex,
  weekdayOf,
  WEEKDAY_NAMES,
  localDay,
} from "~/lib/calendar-month";
import { formatTime } from "~/lib/dates";
import { messages } from "~/lib/messages";
import { revisionMessages as m } from "~/lib/newsroom-messages";
import { pageMeta, siteMetaOf, siteOf } from "~/lib/seo";
import { requireNewsroomMember } from "~/server/accounts/guards.server";
import { scheduledInMonth } from "~/server/news/scheduled-calendar.server";
import { siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/dashboard-calendar";

/** The newsroom's month of scheduled stories: an editor sees all, an author their own. A month the URL names badly is the current one. */
export async function loader({ request, url, context }: Route.LoaderArgs) {
  const site = context.get(siteContext);
  const actor = await requireNewsroomMember(site.auth, request);
  const now = site.clock.now();
  const month = parseMonth(url.searchParams.get("month")) ?? monthOf(now);
  return { month, today: localDay(now), days: await scheduledInMonth(site.db, actor, month) };
}

export function meta({ matches }: Route.MetaArgs) {
  return pageMeta({
    ...siteMetaOf(matches),
    path: "/dashboard/calendar",
    title: `${m.calendarTitle} | ${siteOf(matches).name}`,
    description: m.calendarTitle,
    noindex: true,
    image: null,
  });
}

export default function CalendarPage({ loaderData }: Route.ComponentProps) {
  const { month, today, days } = loaderData;
  const count = daysIn(month);
  const offset = weekdayIndex(month.year, month.month, 1);
  const empty = Object.keys(days).length === 0;
  return (
    <div className="space-y-6">
      <DashboardHeading title={m.calendarTitle} links={[{ to: "/dashboard", label: messages.dashboard }]} />
      <nav className="flex flex-wrap items-center justify-between gap-3" aria-label={m.calendarTitle}>
        <Link to={`?month=${monthParam(shiftMonth(month, -1))}`} className={dashboardButton} rel="prev">
          → {m.calendarPrevious}
        </Link>
        <h2 className="order-first w-full text-xl font-bold sm:order-none sm:w-auto" data-testid="calendar-month">
          {monthTitle(month)}
        </h2>
        <Link to={`?month=${monthParam(shiftMonth(month, 1))}`} className={dashboardButton} rel="next">
          {m.calendarNext} ←
        </Link>
      </nav>
      {empty ? <p className="text-stone-600">{m.calendarEmpty}</p> : null}
      <div className="rounded-lg bg-white shadow-sm ring-1 ring-stone-200" data-testid="calendar">
        <ol
          className="hidden grid-cols-7 border-b border-stone-200 text-center text-sm font-bold text-stone-700 sm:grid"
          aria-hidden="true"
        >
          {WEEKDAY_NAMES.map((name) => (
            <li key={name} className="p-2">
              {name}
            </li>
          ))}
        </ol>
        <ol className="grid grid-cols-1 sm:grid-cols-7">
          {Array.from({ length: offset }, (_, i) => (
            <li key={`pad${i}`} className="hidden border-b border-stone-100 sm:block" aria-hidden="true" />
          ))}
          {Array.from({ length: count }, (_, i) => {
            const day = i + 1;
            const key = `${monthParam(month)}-${String(day).padStart(2, "0")}`;
            const stories = days[key] ?? [];
            return (
              <li
                key={key}
                className={`${stories.length === 0 ? "hidden sm:block" : ""} min-h-24 min-w-0 border-b border-stone-100 p-2 sm:border-s ${key === today ? "bg-amber-50" : ""}`}
                data-testid={stories.length > 0 ? "calendar-day" : undefined}
                data-day={key}
              >
                <p className="text-sm font-bold text-stone-700">
                  <span className="sm:hidden">{weekdayOf(month.year, month.month, day)} </span>
                  {dayLabel(day)}
                  {key === today ? <span className="ms-2 text-xs text-amber-900">{m.calendarToday}</span> : null}
                </p>
                <ul className="mt-1 space-y-1">
                  {stories.map((story) => (
                    <li key={story.id} className="text-sm break-words">
                      <time dateTime={story.publishAt} className="text-xs text-stone-600">
                        {formatTime(story.publishAt)}
                      </time>{" "}
                      {story.editable ? (
                        <a
                          href={`/edit-news/${encodeURIComponent(story.id)}`}
                          className="font-bold text-brand-700 hover:underline"
                          data-testid="calendar-story"
                        >
                          {story.title}
                        </a>
                      ) : (
                        <span className="font-bold" data-testid="calendar-story">
                          {story.title}
                        </span>
                      )}
                      {story.authorName ? (
                        <span className="block text-xs text-stone-600">{story.authorName}</span>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}
