/** Who is reading: drafts are visible to admins only. */
export type Audience = { includeDrafts: boolean };
export const PUBLIC: Audience = { includeDrafts: false };
export const EDITORS: Audience = { includeDrafts: true };

export function audienceFor(user: { role: string } | null): Audience {
  return user?.role === "admin" ? EDITORS : PUBLIC;
}
