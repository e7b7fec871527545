import { logoUrl } from "~/lib/site-settings";
import { useSiteFrame } from "./use-site-frame";

export function Logo() {
  const site = useSiteFrame();
  return (
    <span className="flex items-center gap-2">
      <img src={logoUrl(site)} alt="" width="40" height="40" className="size-10 rounded bg-white p-1" />
      <span className="leading-tight">
        <span className="block text-xl font-bold" data-testid="site-name">
          {site.name}
        </span>
        {site.tagline ? <span className="block text-xs text-white/80">{site.tagline}</span> : null}
      </span>
    </span>
  );
}
