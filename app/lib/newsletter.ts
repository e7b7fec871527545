/** The longest opening an editor may write above a morning brief. */
export const BRIEF_OPENING_MAX = 600;
