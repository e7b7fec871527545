import { pageError } from "~/server/http/page-error.server";
import { AppError } from "~/server/platform/app-error.server";

export function loader() {
  throw pageError(new AppError("not-found"));
}

export default function NotFound() {
  return null;
}
