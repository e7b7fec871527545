import { data, redirect } from "react-router";
import { signOut } from "~/server/accounts/accounts.server";
import { requireUser } from "~/server/accounts/guards.server";
import { errorBody } from "~/server/platform/app-error.server";
import { clientIpContext, siteContext } from "~/server/site/request-context.server";
import type { Route } from "./+types/sign-out";

export async function action({ request, context }: Route.ActionArgs) {
  const site = context.get(siteContext);
  await requireUser(site.auth, request);
  const outcome = await signOut(site.accounts, request, context.get(clientIpContext));
  if (!outcome.ok) return data(errorBody(outcome.error), outcome.error.status);
  const headers = new Headers();
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
