import { data, redirect } from "react-router";
import { signOut } from "~/server/accounts/accounts.server";
import { requireUser } from "~/server/accounts/guards.server";
import { errorBody } from "~/server/platform/app-error.server";
import { accountsContext, auth } from "~/server/platform/site.server";
import { clientIpContext } from "~/load-context.server";
import type { Route } from "./+types/sign-out";

export async function action({ request, context }: Route.ActionArgs) {
  await requireUser(auth(), request);
  const outcome = await signOut(accountsContext(), request, context.get(clientIpContext));
  if (!outcome.ok) return data(errorBody(outcome.error), outcome.error.status);
  const headers = new Headers();
  for (const cookie of outcome.cookies) headers.append("Set-Cookie", cookie);
  return redirect("/", { headers });
}

export function loader() {
  return redirect("/");
}
