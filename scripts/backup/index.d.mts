// Types of scripts/backup/index.mjs for the TypeScript that uses it (the nightly backup, the tests).
export declare const FORMAT: "praksis-backup";
export declare const FORMAT_VERSION: number;
export declare class BackupError extends Error {}
export interface BackupManifest {
  format: "praksis-backup";
  version: number;
  app: { name: string; version: string };
  /** The newest migration applied (drizzle.__drizzle_migrations), its tag from drizzle/meta/_journal.json. */
  migration: { tag: string | null; hash: string; createdAt: number; applied: number } | null;
  /** The snapshot's time (ISO): the clock read by the statement that took it; every row copied was committed before. */
  snapshotAt: string;
  server: string;
  tables: { name: string; columns: string[]; rows: number }[];
  rows: number;
  sequences: { name: string; table: string; column: string; lastValue: number; isCalled: boolean }[];
  /** SHA-256 of the file's uncompressed bytes before the manifest line. */
  sha256: string;
}
export declare function writeBackup(options: {
  databaseUrl: string;
  file: string;
  log?: { info(message: string): void };
  gzipLevel?: number;
}): Promise<{ file: string; bytes: number; seconds: number; manifest: BackupManifest }>;
export declare function readManifest(file: string): Promise<BackupManifest>;
export declare function restoreBackup(options: {
  databaseUrl: string;
  file: string;
  replace?: boolean;
  log?: { info(message: string): void };
  /** The file's manifest from readManifest(file), when read already (the load verifies the checksum again). */
  verified?: BackupManifest;
}): Promise<{ tables: number; rows: number; seconds: number; manifest: BackupManifest }>;
export declare function formatBytes(bytes: number): string;
