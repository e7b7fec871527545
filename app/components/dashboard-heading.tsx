import { Link } from "react-router";
import { messages } from "~/lib/messages";

export type HeadingLink = { to: string; label: string };

const BACK_TO_DASHBOARD: HeadingLink[] = [{ to: "/dashboard", label: messages.dashboard }];

/**
 * A dashboard page's title (its section labelled by `id`) and, beside it, its links: by default the
 * way back to the dashboard; a link given as false is left out.
 */
export function DashboardHeading({
  id,
  title,
  links = BACK_TO_DASHBOARD,
}: {
  id?: string;
  title: string;
  links?: (HeadingLink | false)[];
}) {
  return (
    <div className="flex flex-wrap items-baseline justify-between gap-3">
      <h1 id={id} className="border-s-4 border-brand-600 ps-3 text-3xl font-bold">
        {title}
      </h1>
      <div className="flex flex-wrap gap-4">
        {links
          .filter((link): link is HeadingLink => link !== false)
          .map((link) => (
            <Link key={link.to} to={link.to} className="font-bold text-brand-700 hover:underline">
              {link.label}
            </Link>
          ))}
      </div>
    </div>
  );
}
