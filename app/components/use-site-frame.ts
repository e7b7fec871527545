import { useRouteLoaderData } from "react-router";
import { frameOf, NEUTRAL_SETTINGS, type SiteFrame } from "~/lib/site-settings";

const NEUTRAL_FRAME = frameOf(NEUTRAL_SETTINGS, false);

/** The site's settings every page's frame shows, as the root loader read them. */
export function useSiteFrame(): SiteFrame {
  const root = useRouteLoaderData("root") as { site?: SiteFrame } | undefined;
  return root?.site ?? NEUTRAL_FRAME;
}
