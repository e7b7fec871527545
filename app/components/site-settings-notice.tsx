import { Link } from "react-router";
import { settingsMessages as sm } from "~/lib/newsroom-messages";
import { isAdmin } from "~/lib/permissions";
import type { Role } from "~/lib/constants";
import { useSiteFrame } from "./use-site-frame";

/** For admins on the dashboard: the way to the settings, and a banner leading there until they were saved once. */
export function SiteSettingsNotice({ actor }: { actor: { role: Role } }) {
  const { saved } = useSiteFrame();
  if (!isAdmin(actor)) return null;
  if (saved) {
    return (
      <p className="text-end">
        <Link to="/dashboard/settings" className="font-bold text-brand-700 hover:underline">
          {sm.settingsLink}
        </Link>
      </p>
    );
  }
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-amber-950"
      data-testid="settings-setup-banner"
    >
      <p className="font-bold">{sm.settingsSetupBanner}</p>
      <Link to="/dashboard/settings" className="rounded bg-brand-600 px-4 py-2 font-bold text-white hover:bg-brand-700">
        {sm.settingsSetupAction}
      </Link>
    </div>
  );
}
