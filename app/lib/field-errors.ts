import type { ArticleField, ArticleFieldErrors } from "./article-schema";

/** The first message of each field among a schema's issues, as the form shows them. */
export function articleFieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[]): ArticleFieldErrors {
  const errors: ArticleFieldErrors = {};
  for (const issue of issues) errors[String(issue.path[0] ?? "form") as ArticleField] ??= issue.message;
  return errors;
}
