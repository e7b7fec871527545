import { Link } from "react-router";
import { CATEGORIES, categoryLabel } from "~/lib/categories";
import { DASHBOARD_QUERY_MAX, isFiltered, type DashboardFilter } from "~/lib/dashboard-filter";
import { newsroomMessages } from "~/lib/newsroom-messages";
import { CHOSEN_STATUSES } from "~/lib/news";
import { statusLabel } from "~/lib/status-labels";

/** The dashboard's small bordered buttons (its filters' "clear", each row's actions, the pages). */
export const dashboardButton =
  "rounded border border-stone-300 bg-white px-2 py-1 text-sm font-bold hover:bg-stone-100 whitespace-nowrap";
const field = "w-full rounded border border-stone-300 bg-white px-2 py-1.5";

/** The dashboard list's filters, sent in its URL (lib/dashboard-filter.ts). */
export function DashboardFilters({
  filter,
  members,
}: {
  filter: DashboardFilter;
  members: { id: string; name: string }[];
}) {
  return (
    <form
      method="get"
      action="/dashboard"
      role="search"
      className="mb-4 grid gap-2 sm:grid-cols-2 lg:grid-cols-[2fr_1fr_1fr_1fr_auto]"
      data-testid="dashboard-filters"
    >
      <input
        type="search"
        name="q"
        defaultValue={filter.query}
        maxLength={DASHBOARD_QUERY_MAX}
        placeholder={newsroomMessages.filterTitle}
        aria-label={newsroomMessages.filterTitle}
        className={field}
      />
      <select
        name="status"
        defaultValue={filter.status ?? ""}
        aria-label={newsroomMessages.filterByStatus}
        className={field}
      >
        <option value="">{newsroomMessages.filterAllStatuses}</option>
        {CHOSEN_STATUSES.map((status) => (
          <option key={status} value={status}>
            {statusLabel(status)}
          </option>
        ))}
      </select>
      <select
        name="category"
        defaultValue={filter.category ?? ""}
        aria-label={newsroomMessages.filterByCategory}
        className={field}
      >
        <option value="">{newsroomMessages.filterAllCategories}</option>
        {CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {categoryLabel(category)}
          </option>
        ))}
      </select>
      {members.length > 0 && (
        <select
          name="author"
          defaultValue={filter.authorId ?? ""}
          aria-label={newsroomMessages.filterByAuthor}
          className={field}
        >
          <option value="">{newsroomMessages.filterAllAuthors}</option>
          {members.map((member) => (
            <option key={member.id} value={member.id}>
              {member.name}
            </option>
          ))}
        </select>
      )}
      <div className="flex gap-2">
        <button
          type="submit"
          className="rounded bg-brand-600 px-4 py-1 text-sm font-bold whitespace-nowrap text-white hover:bg-brand-700"
        >
          {newsroomMessages.filterApply}
        </button>
        {isFiltered(filter) && (
          <Link to="/dashboard" className={`${dashboardButton} flex items-center`}>
            {newsroomMessages.filterClear}
          </Link>
        )}
      </div>
    </form>
  );
}
