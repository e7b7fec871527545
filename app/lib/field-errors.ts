import type { ArticleField, ArticleFieldErrors } from "./article-schema";

/** The lists of the images' order and details: the form shows their messages together. */
const IMAGE_DETAIL_FIELDS = new Set(["imageOrder", "imageAlt", "imageCaption", "imageCredit"]);

/** The first message of each field among a schema's issues, as the form shows them. */
export function articleFieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): ArticleFieldErrors {
  const errors: ArticleFieldErrors = {};
  for (const issue of issues) {
    const field = String(issue.path[0] ?? "form");
    errors[(IMAGE_DETAIL_FIELDS.has(field) ? "imageDetails" : field) as ArticleField] ??= issue.message;
  }
  return errors;
}
