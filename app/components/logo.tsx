import { messages } from "~/lib/messages";

export const LOGO_SRC = "/logo.svg";

export function Logo() {
  return (
    <span className="flex items-center gap-2">
      <img src={LOGO_SRC} alt="" width="40" height="40" className="size-10 rounded bg-white p-1" />
      <span className="leading-tight">
        <span className="block text-xl font-bold">{messages.siteName}</span>
        <span className="block text-xs text-white/80">{messages.siteTagline}</span>
      </span>
    </span>
  );
}
