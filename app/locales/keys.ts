import type resources from "./index";

/**
 * The translation keys as types, read from the bokmål texts (the source language; the locale
 * parity test keeps English to the same keys). A key that a service hands to a page, or that a
 * page is given to translate, is one of these, so a misspelt or removed key fails `tsc` where it
 * is written, while `t` itself stays untyped: i18next's own resource types (`CustomTypeOptions.resources`)
 * made `tsc` about five times slower on these texts and typed every `t` by its namespace.
 */
type Texts = (typeof resources)["nb"];

/** The namespaces ("common", "auth", "adminUsers", …). */
export type Namespace = keyof Texts;

// "count_one" and "count_other" are the key "count" (i18next picks the form from `count`).
type PluralSuffix = "_zero" | "_one" | "_two" | "_few" | "_many" | "_other";
type WithoutPlural<K extends string> = K extends `${infer Base}${PluralSuffix}` ? Base : K;

type Leaves<T> = {
  [K in keyof T & string]: T[K] extends string ? WithoutPlural<K> : `${K}.${Leaves<T[K]>}`;
}[keyof T & string];

/** A key of one namespace, without the namespace: `KeyOf<"teacher">` takes "class.outsider.heading". */
export type KeyOf<NS extends Namespace> = Leaves<Texts[NS]>;

/** A key with its namespace, as a service hands it to a page: "auth:errors.emailInvalid". */
export type MessageKey = { [NS in Namespace]: `${NS}:${KeyOf<NS>}` }[Namespace];

/**
 * A key built from data at run time (a level, a role, a status): the lookup table lists every
 * key it may give, typed, so a missing text fails `tsc` rather than showing the key.
 */
export function keyFrom<const V extends string, const K extends MessageKey>(table: Record<V, K>, value: V): K {
  return table[value];
}
