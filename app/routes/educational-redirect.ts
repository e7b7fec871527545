import { redirect } from "react-router";
import type { Route } from "./+types/educational-redirect";

/** Both spellings work, for the page and its feed; they live at /educatonal (docs/product.md#categories). */
export function loader({ url }: Route.LoaderArgs) {
  const { pathname, search } = url;
  return redirect(`${pathname.replace(/^\/educational/, "/educatonal")}${search}`, 301);
}
