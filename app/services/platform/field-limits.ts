// Lengths of text fields that several domains share: one source for the zod schemas (the
// server's check, and the browser's once a page is interactive) and the inputs' `maxlength`
// (typing stops at the limit, with JavaScript or without). Not in the schema modules: a page
// loads zod only once it is interactive (ADR 0012), its markup needs the numbers at once.

/** An e-mail address (RFC 5321's limit on a path). */
export const EMAIL_MAX = 254;

/** A person's full name. */
export const PERSON_NAME_MAX = 200;
