// The admin pages' field lengths, for the schemas and the inputs' maxlength alike (see platform/field-limits.ts).

export const SUBJECT_CODE_MAX = 20;
export const SUBJECT_NAME_MAX = 200;

/** The users list's search: longer input is cut to this many characters. */
export const USER_SEARCH_MAX_LENGTH = 200;

/** A user's display name, as the administrator edits it. */
export const DISPLAY_NAME_MAX_LENGTH = 200;
