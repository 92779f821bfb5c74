// Types of scripts/carry-over-pglite.mjs for the TypeScript that uses it (its test).
export declare function hasPgliteData(dir: string): boolean;
export declare function carryOverPglite(options: {
  pgliteDir: string;
  url: string;
  log?: { info(message: string): void };
}): Promise<{ tables: number; rows: number; movedTo: string } | { skipped: string }>;
