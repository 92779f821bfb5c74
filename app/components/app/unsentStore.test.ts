import { describe, expect, test } from "vitest";
import {
  countUnsent,
  dropExpired,
  LEGACY_PREFIX,
  openVault,
  ownKeys,
  UNSENT_MAX_AGE_MS,
  UNSENT_PREFIX,
  UnsentQueue,
  type UnsentKey,
} from "./unsentStore";

/** localStorage as the browser has it, in memory. */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    key: (i) => [...items.keys()][i] ?? null,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
    clear: () => items.clear(),
  };
}

const bytes = (fill: number) => Buffer.alloc(32, fill).toString("base64url");
const alice: UnsentKey = { keyId: "aliceKeyId00", key: bytes(1) };
const bob: UnsentKey = { keyId: "bobKeyId0000", key: bytes(2) };
const DAY = 24 * 60 * 60 * 1000;
// A fixed clock: no test depends on today's date.
const NOW = Date.UTC(2030, 0, 15, 12);

describe("what a browser keeps, sealed with its owner's key (ADR 0011)", () => {
  test("is read back by its owner only; the stored entry shows neither the text nor the person", async () => {
    const store = memoryStorage();
    const [a, b] = await Promise.all([openVault(alice), openVault(bob)]);
    const slot = await a.slot("answer:3:1:7:42:5");
    expect(slot.startsWith(`${UNSENT_PREFIX}${alice.keyId}:`)).toBe(true);
    expect(await a.seal(store, slot, { value: "Kom for sent til vakten" }, NOW)).toBe(true);
    expect(await a.open(store, slot)).toEqual({ content: { value: "Kom for sent til vakten" }, at: NOW });
    const stored = store.getItem(slot)!;
    expect(stored).not.toContain("Kom for sent");
    expect(slot).not.toMatch(/answer|:3:1:7:42/);
    // The other person's key neither names the same entry nor opens it.
    expect(await b.slot("answer:3:1:7:42:5")).not.toBe(slot);
    expect(await b.open(store, slot)).toBeNull();
    expect(ownKeys(store, bob.keyId)).toEqual([]);
    expect(ownKeys(store, alice.keyId)).toEqual([slot]);
  });

  test("an entry copied under another name, or changed, opens as nothing", async () => {
    const store = memoryStorage();
    const a = await openVault(alice);
    const slot = await a.slot("one");
    await a.seal(store, slot, { value: "x" }, NOW);
    const other = await a.slot("two");
    store.setItem(other, store.getItem(slot)!);
    expect(await a.open(store, other)).toBeNull();
    const entry = JSON.parse(store.getItem(slot)!) as { data: string };
    // One character of the sealed data changed (to another one whatever it was: the data is random).
    store.setItem(
      slot,
      JSON.stringify({ ...entry, data: `${entry.data[0] === "A" ? "B" : "A"}${entry.data.slice(1)}` }),
    );
    expect(await a.open(store, slot)).toBeNull();
    store.setItem(slot, "not json");
    expect(await a.open(store, slot)).toBeNull();
  });

  test("the logout counts the person's own entries that are still waiting, nobody else's", async () => {
    const store = memoryStorage();
    const [a, b] = await Promise.all([openVault(alice), openVault(bob)]);
    await a.seal(store, await a.slot("q1"), {}, NOW - DAY);
    await a.seal(store, await a.slot("q2"), {}, NOW);
    await a.seal(store, await a.slot("old"), {}, NOW - UNSENT_MAX_AGE_MS - 1);
    await b.seal(store, await b.slot("q1"), {}, NOW);
    store.setItem("theme", "dark");
    expect(countUnsent(store, alice.keyId, NOW)).toBe(2);
    expect(countUnsent(store, bob.keyId, NOW)).toBe(1);
    expect(countUnsent(store, "", NOW)).toBe(0);
    expect(countUnsent(null, alice.keyId, NOW)).toBe(0);
  });

  test("after 7 days an entry is gone, whoever's it is; younger ones and other keys stay", async () => {
    const store = memoryStorage();
    const [a, b] = await Promise.all([openVault(alice), openVault(bob)]);
    const young = await a.slot("young");
    const weekOld = await a.slot("week");
    const expired = await b.slot("expired");
    await a.seal(store, young, {}, NOW - 6 * DAY);
    await a.seal(store, weekOld, {}, NOW - UNSENT_MAX_AGE_MS);
    await b.seal(store, expired, {}, NOW - UNSENT_MAX_AGE_MS - 1);
    // The earlier unsealed format: old ones go too, and malformed ones under the prefix.
    store.setItem(
      `${LEGACY_PREFIX}17:3:1:7:42`,
      JSON.stringify({ "5": { base: "", value: "1", comment: "", at: NOW - 8 * DAY } }),
    );
    store.setItem(`${LEGACY_PREFIX}17:warning:3:42`, JSON.stringify({ warningId: "", texts: {}, at: NOW - DAY }));
    store.setItem(`${UNSENT_PREFIX}garbage`, "{");
    store.setItem("theme", "dark");
    dropExpired(store, NOW);
    expect(ownKeys(store, alice.keyId).sort()).toEqual([young, weekOld].sort());
    expect(ownKeys(store, bob.keyId)).toEqual([]);
    expect(store.getItem(`${LEGACY_PREFIX}17:3:1:7:42`)).toBeNull();
    expect(store.getItem(`${LEGACY_PREFIX}17:warning:3:42`)).not.toBeNull();
    expect(store.getItem(`${UNSENT_PREFIX}garbage`)).toBeNull();
    expect(store.getItem("theme")).toBe("dark");
    // A day later the week-old one has gone too.
    dropExpired(store, NOW + DAY);
    expect(ownKeys(store, alice.keyId)).toEqual([young]);
  });

  test("keeps and forgets in the order asked, though sealing takes a moment", async () => {
    const store = memoryStorage();
    const queue = new UnsentQueue(openVault(alice));
    const kept = queue.run(async (vault) => vault.seal(store, await vault.slot("q"), { value: "1" }, NOW));
    const forgotten = queue.run(async (vault) => store.removeItem(await vault.slot("q")));
    await Promise.all([kept, forgotten]);
    expect(ownKeys(store, alice.keyId)).toEqual([]);
  });
});
