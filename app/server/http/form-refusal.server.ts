import { data } from "react-router";
import type { ErrorCode } from "~/lib/error-body";
import { AppError, errorBody } from "~/server/platform/app-error.server";
import { retryAfterHeaders } from "./error-response.server";

type FormOptions<E> = {
  /** What the page needs beside the refusal to show it again (which of its forms, which mode). */
  echo?: E;
  /**
   * Refusals the form does not show (an article gone or not the actor's, a database failing): they go on
   * as any AppError that escapes a route does, to the error page (from a resource route, the JSON error).
   */
  passOn?: readonly ErrorCode[];
};

/**
 * A form's action: `run`'s answer, or the AppError it throws as the action's data,
 * `{ ...echo, error: { code, message, reason?, fields? } }`, with the error's status and Retry-After, so
 * the page shows the form again with each message beside its field (`formMessagesOf`). Anything else
 * thrown (a redirect, a bug) goes on as it would without it.
 */
export async function answerForm<T, E extends object = object>(
  run: () => Promise<T>,
  { echo, passOn = [] }: FormOptions<E> = {},
) {
  try {
    return await run();
  } catch (error) {
    if (!AppError.is(error)) throw error;
    if (passOn.includes(error.code)) throw error;
    return data({ ...(echo as E), ...errorBody(error) }, { status: error.status, headers: retryAfterHeaders(error) });
  }
}
