/**
 * Where the pages keep what the server has not stored yet (ADR 0011): the browser's localStorage,
 * sealed with the person's own key. Anyone at a shared PC can see that entries exist, but not whose
 * they are or what they say, and cannot remove them by logging in or opening a page; only an entry
 * older than UNSENT_MAX_AGE_MS is removed by whoever comes by (it is unreadable anyway).
 *
 * - The key: AES-GCM, 256 bits, derived on the server from the app's secret and the user id
 *   (platform/unsent-key.server.ts) and handed only to that person's own pages. The same bytes,
 *   as an HMAC key, name the entries, so a page finds its own without trying to open others'.
 * - An entry: `praksis:unsent:v2:<key id>:<HMAC of what it holds the place of>` →
 *   `{"at":<ms>,"iv":"…","data":"…"}`: when it was kept (plain, for the expiry) and the sealed
 *   content, bound to its own name (additional data), so an entry cannot be moved to another name.
 * Kept here apart from the pages' keepers, so the menu's logout (on every page) can count them
 * without loading the form page's code.
 */
export const UNSENT_PREFIX = "praksis:unsent:v2:";
/** Entries of the earlier, unsealed format: read by nobody now, removed when they are old. */
export const LEGACY_PREFIX = "praksis:unsent:v1:";
/** Kept answers not sent within a week are given up. */
export const UNSENT_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** The person's key as the server hands it to their pages (base64url). */
export interface UnsentKey {
  keyId: string;
  key: string;
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

interface Sealed {
  at: number;
  iv: string;
  data: string;
}

function readSealed(text: string | null): Sealed | null {
  try {
    const entry = JSON.parse(text ?? "") as Partial<Sealed> | null;
    if (!entry || typeof entry.at !== "number" || typeof entry.iv !== "string" || typeof entry.data !== "string")
      return null;
    return entry as Sealed;
  } catch {
    return null;
  }
}

/** When an old unsealed entry was last kept (the newest `at` in it), or 0. */
function legacyAt(text: string | null): number {
  try {
    const entry = JSON.parse(text ?? "") as Record<string, unknown> | null;
    if (!entry || typeof entry !== "object") return 0;
    const times = [entry.at, ...Object.values(entry).map((value) => (value as { at?: unknown } | null)?.at)];
    return Math.max(0, ...times.filter((at): at is number => typeof at === "number"));
  } catch {
    return 0;
  }
}

/** Removes every entry, anyone's, kept more than a week ago (and anything under the prefix that is not an entry). */
export function dropExpired(store: Storage, now: number): void {
  for (const key of storedKeys(store)) {
    let at: number | null = null;
    if (key.startsWith(UNSENT_PREFIX)) at = readSealed(store.getItem(key))?.at ?? 0;
    else if (key.startsWith(LEGACY_PREFIX)) at = legacyAt(store.getItem(key));
    if (at !== null && now - at > UNSENT_MAX_AGE_MS) {
      try {
        store.removeItem(key);
      } catch {
        // left for the next page
      }
    }
  }
}

/** The storage keys of the person's own entries (by the key id; nobody else's are opened). */
export function ownKeys(store: Storage, keyId: string): string[] {
  return storedKeys(store).filter((key) => key.startsWith(`${UNSENT_PREFIX}${keyId}:`));
}

/** How many of the person's kept entries are waiting (not expired): what the logout tells them. */
export function countUnsent(store: Storage | null, keyId: string, now: number): number {
  if (!store || !keyId) return 0;
  return ownKeys(store, keyId).filter((key) => {
    const entry = readSealed(store.getItem(key));
    return entry !== null && now - entry.at <= UNSENT_MAX_AGE_MS;
  }).length;
}

const bytesOf = (base64url: string): Uint8Array<ArrayBuffer> => {
  const binary = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
};
const base64urlOf = (bytes: ArrayBuffer | Uint8Array): string => {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};
const utf8 = new TextEncoder();

/** The person's entries: named, sealed and opened with their key. */
export interface UnsentVault {
  keyId: string;
  /** The storage key of what stands in for `name` (a question of an answer set, a draft). */
  slot(name: string): Promise<string>;
  seal(store: Storage, slot: string, content: unknown, at: number): Promise<boolean>;
  /** The content of one of the person's entries; null for one that is not theirs, tampered with or malformed. */
  open(store: Storage, slot: string): Promise<{ content: unknown; at: number } | null>;
}

export async function openVault(key: UnsentKey, subtle: SubtleCrypto = globalThis.crypto.subtle): Promise<UnsentVault> {
  const raw = bytesOf(key.key);
  const [aes, hmac] = await Promise.all([
    subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]),
    subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]),
  ]);
  return {
    keyId: key.keyId,
    async slot(name) {
      const mac = await subtle.sign("HMAC", hmac, utf8.encode(name));
      return `${UNSENT_PREFIX}${key.keyId}:${base64urlOf(new Uint8Array(mac).slice(0, 16))}`;
    },
    async seal(store, slot, content, at) {
      const iv = globalThis.crypto.getRandomValues(new Uint8Array(12));
      const data = await subtle.encrypt(
        { name: "AES-GCM", iv, additionalData: utf8.encode(slot) },
        aes,
        utf8.encode(JSON.stringify(content)),
      );
      try {
        store.setItem(slot, JSON.stringify({ at, iv: base64urlOf(iv), data: base64urlOf(data) } satisfies Sealed));
        return true;
      } catch {
        return false;
      }
    },
    async open(store, slot) {
      const entry = readSealed(store.getItem(slot));
      if (!entry) return null;
      try {
        const plain = await subtle.decrypt(
          { name: "AES-GCM", iv: bytesOf(entry.iv), additionalData: utf8.encode(slot) },
          aes,
          bytesOf(entry.data),
        );
        return { content: JSON.parse(new TextDecoder().decode(plain)) as unknown, at: entry.at };
      } catch {
        return null;
      }
    },
  };
}

/**
 * One page's entries, kept and forgotten in the order the page asked: sealing takes a moment, and a
 * forget must not be overtaken by the keep before it.
 */
export class UnsentQueue {
  private last: Promise<unknown> = Promise.resolve();
  constructor(readonly vault: Promise<UnsentVault>) {}
  run<T>(step: (vault: UnsentVault) => Promise<T>): Promise<T> {
    const next = this.last.then(() => this.vault).then(step);
    this.last = next.catch(() => undefined);
    return next;
  }
}
