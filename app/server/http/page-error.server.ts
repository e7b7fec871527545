import { data } from "react-router";
import { AppError, errorBody } from "~/server/platform/app-error.server";
import { retryAfterHeaders } from "./error-response.server";

/** A page's refusal, thrown from a loader or returned from an action: the same body as the API's, its status, Retry-After. */
export function pageError(error: AppError) {
  return data(errorBody(error), { status: error.status, headers: retryAfterHeaders(error) });
}
