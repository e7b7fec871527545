/** The lists of the images' order and details: the form shows their messages together. */
const IMAGE_DETAIL_FIELDS: ReadonlySet<string> = new Set(["imageOrder", "imageAlt", "imageCaption", "imageCredit"]);

/** The article form's field a message about `field` is shown beside. */
export const articleFieldOf = (field: string): string => (IMAGE_DETAIL_FIELDS.has(field) ? "imageDetails" : field);
