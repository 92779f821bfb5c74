// Types of scripts/backup/migrations.mjs for the TypeScript that uses it (the tests).
import type pg from "pg";
export declare const root: string;
export declare const migrationsFolder: string;
export declare const MIGRATION_LOCK: number;
export interface Migration {
  tag: string;
  when: number;
  hash: string;
  statements: string[];
}
export declare function knownMigrations(folder?: string): Migration[];
export declare function seededTables(folder?: string): Set<string>;
export declare function applyMigrations(client: Pick<pg.ClientBase, "query">, migrations: Migration[]): Promise<void>;
