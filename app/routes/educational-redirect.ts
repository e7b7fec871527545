import { redirect } from "react-router";
import type { Route } from "./+types/educational-redirect";

/** Both spellings work; the page lives at /educatonal (docs/product.md#categories). */
export function loader({ url }: Route.LoaderArgs) {
  const { search } = url;
  return redirect(`/educatonal${search}`, 301);
}
