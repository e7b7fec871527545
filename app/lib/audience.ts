import { isEditor, type Actor } from "./permissions";

/** Who is reading: articles that are not published are visible to editors and admins only. */
export type Audience = { includeDrafts: boolean };
export const PUBLIC: Audience = { includeDrafts: false };
export const EDITORS: Audience = { includeDrafts: true };

export function audienceFor(user: Actor | null): Audience {
  return isEditor(user) ? EDITORS : PUBLIC;
}
