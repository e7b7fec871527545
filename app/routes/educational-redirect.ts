import { redirect } from "react-router";
import type { Route } from "./+types/educational-redirect";

/** DESIGN.md §3: both spellings work; the page lives at /educatonal. */
export function loader({ url }: Route.LoaderArgs) {
  const { search } = url;
  return redirect(`/educatonal${search}`, 301);
}
