import { redirect } from "react-router";
import type { Route } from "./+types/educational-redirect";

/** DESIGN.md §3: both spellings work; the page lives at /educatonal. */
export function loader({ request }: Route.LoaderArgs) {
  const { search } = new URL(request.url);
  return redirect(`/educatonal${search}`, 301);
}
