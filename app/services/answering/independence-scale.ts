import { safeRedirect } from "~/services/identity";

/**
 * The independence scale (docs/rules/answering.md): five levels, each described by one statement
 * per aspect of the student's performance. A level's index is the value a grading answer stores
 * (0 Selvstendig … 4 Uselvstendig); index 5, "Ikke relevant", is an answer but not a level.
 * The texts are in the "scale" locale namespace: levels.<level>, aspects.<aspect> and
 * statements.<level>.<aspect>.
 */
export const SCALE_LEVELS = ["independent", "partiallyIndependent", "supervised", "assisted", "dependent"] as const;
export type ScaleLevel = (typeof SCALE_LEVELS)[number];

/** Ten aspects: the nine of the scale's original description, with time use beside resource use as the tenth. */
export const SCALE_ASPECTS = [
  "observations",
  "purposefulness",
  "accuracy",
  "resourceUse",
  "timeUse",
  "patientFocus",
  "safety",
  "reflection",
  "behaviour",
  "guidance",
] as const;
export type ScaleAspect = (typeof SCALE_ASPECTS)[number];

/** The two levels compared side by side on a narrow screen: by default the first and the second. */
export interface Comparison {
  first: number;
  second: number;
}

export const DEFAULT_COMPARISON: Comparison = { first: 0, second: 1 };

/** The query parameters of the comparison form: `?a=0&b=1`. */
export const COMPARISON_PARAMS = { first: "a", second: "b" } as const;

/** A level index as written in the URL, "0" to "4" and nothing else; anything else is null. */
export function parseLevelIndex(value: string | null): number | null {
  if (value === null || !/^[0-9]$/.test(value)) return null;
  const index = Number(value);
  return index < SCALE_LEVELS.length ? index : null;
}

export interface ScaleQuery extends Comparison {
  /** Where the no-JS close link leads: a same-site path given as `back`, else null (the front page). */
  back: string | null;
}

/**
 * Reads the page's query. Each level falls back to its default on its own, so a hand-edited or
 * stale link still shows a comparison. Choosing the same level twice is allowed: with JavaScript
 * the page updates after each select, and the user is often on the way to picking the other.
 */
export function readScaleQuery(params: URLSearchParams): ScaleQuery {
  const back = safeRedirect(params.get("back"), "");
  return {
    first: parseLevelIndex(params.get(COMPARISON_PARAMS.first)) ?? DEFAULT_COMPARISON.first,
    second: parseLevelIndex(params.get(COMPARISON_PARAMS.second)) ?? DEFAULT_COMPARISON.second,
    back: back === "" ? null : back,
  };
}
