/**
 * Ids in URLs and forms are serial database ids (int4). Anything that cannot be one is treated as
 * unknown — a 404 or a form error — never passed to the database to fail there.
 */
export function parseId(value: string | null | undefined): number | null {
  if (!value || !/^\d{1,10}$/.test(value)) return null;
  const id = Number(value);
  return id >= 1 && id <= 2_147_483_647 ? id : null;
}

/** The answer for anything the user may not know exists: an unknown id, a page switched off. */
export function notFound(): never {
  throw new Response("Not Found", { status: 404 });
}

/** A route's id parameter; a malformed id is as unknown as a missing one (404). */
export function idParam(value: string | undefined): number {
  const id = parseId(value);
  return id ?? notFound();
}
