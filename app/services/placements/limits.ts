// The placement pages' field lengths, for the schemas and the inputs' maxlength alike (see platform/field-limits.ts).

/** The teacher's student picker's search: longer input is cut to this many characters. */
export const STUDENT_SEARCH_MAX_LENGTH = 100;

/** The phone number a new supervisor gives when accepting an invitation (8 to 15 digits, spaces, a +). */
export const INVITED_PHONE_MAX = 20;
