/**
 * Where the form page keeps answers it could not send (ADR 0011): the storage primitives only, so
 * that the menu's logout (on every page) can clear them without loading the form page's code.
 */
export const UNSENT_PREFIX = "praksis:unsent:v1:";

/** The user an entry belongs to, or null for a key that is not an entry. */
export function userOfKey(key: string): string | null {
  if (!key.startsWith(UNSENT_PREFIX)) return null;
  const user = key.slice(UNSENT_PREFIX.length).split(":")[0];
  return user ? user : null;
}

export function storage(): Storage | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function storedKeys(store: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/** Every kept answer of every user: on logout. */
export function clearAllUnsent(): void {
  const store = storage();
  if (!store) return;
  for (const key of storedKeys(store)) if (userOfKey(key) !== null) store.removeItem(key);
}

