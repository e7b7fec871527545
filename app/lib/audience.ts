/**
 * Who is reading: every public page reads PUBLIC, whoever is signed in (decision 031); the dashboard and
 * the preview of an unpublished article read EDITORS (articles that are not published, but not the trash).
 */
export type Audience = { includeDrafts: boolean };
export const PUBLIC: Audience = { includeDrafts: false };
export const EDITORS: Audience = { includeDrafts: true };
