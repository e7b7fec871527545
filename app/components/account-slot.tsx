import { Link, useRouteLoaderData } from "react-router";
import { messages } from "~/lib/messages";
import type { loader as rootLoader } from "~/root";

/** The sign-in / sign-out place of the navbar and the mobile menu; accounts fill it in. */
export function AccountSlot({ className = "" }: { className?: string }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const user = root?.user ?? null;
  if (user) {
    return <span className={className}>{user.name}</span>;
  }
  return (
    <Link to="/autenction" className={`rounded bg-white/10 px-3 py-1.5 font-bold hover:bg-white/20 ${className}`}>
      {messages.signIn}
    </Link>
  );
}
