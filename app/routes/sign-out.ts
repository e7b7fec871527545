import { redirect } from "react-router";
import { signOut } from "~/server/accounts/accounts.server";
import { requireUser } from "~/server/accounts/guards.server";
import { answerForm } from "~/server/http/form-refusal.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/sign-out";

/** A refusal goes back to the sign-out button's fetcher, which shows its message; the database failing goes on. */
export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireUser(site.auth, request);
  return answerForm(
    async () => {
      const headers = new Headers();
      for (const cookie of await signOut(site.accounts, request, context.get(clientIpContext)))
        headers.append("Set-Cookie", cookie);
      return redirect("/", { headers });
    },
    { passOn: ["unavailable", "storage-full"] },
  );
}

export function loader() {
  return redirect("/");
}
