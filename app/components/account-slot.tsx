import { Link, useFetcher, useRouteLoaderData } from "react-router";
import { errorOf } from "~/lib/error-body";
import { accountMenuLink, messages } from "~/lib/messages";
import { isNewsroomMember } from "~/lib/permissions";
import type { loader as rootLoader } from "~/root";

function Spinner() {
  return <span className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden />;
}

/** Sign-in or sign-out (and the dashboard link for the newsroom), in the navbar and the mobile menu. */
export function AccountSlot({ variant }: { variant: "navbar" | "menu" }) {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const signOut = useFetcher<unknown>();
  const signOutError = errorOf(signOut.data);
  const user = root?.user ?? null;
  const button = variant === "navbar" ? "account-button" : "account-button-menu";

  if (!user) {
    return (
      <Link discover="none" to="/autenction" className={button}>
        {messages.signIn}
      </Link>
    );
  }
  const busy = signOut.state !== "idle";
  return (
    <div className="flex flex-wrap items-center gap-2">
      {isNewsroomMember(user) && (
        <Link discover="none" to="/dashboard" className={button}>
          {messages.dashboard}
        </Link>
      )}
      <Link discover="none" to="/dashboard/account" className={button}>
        {accountMenuLink}
      </Link>
      <signOut.Form method="post" action="/sign-out">
        <button type="submit" className={button} disabled={busy} aria-busy={busy}>
          {busy && <Spinner />}
          {busy ? messages.signingOut : messages.signOut}
        </button>
      </signOut.Form>
      {signOutError && (
        <p role="alert" className="w-full text-sm font-bold">
          {signOutError.message}
        </p>
      )}
    </div>
  );
}
