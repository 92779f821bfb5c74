// Types of scripts/log.mjs for the TypeScript that uses it (app/services/platform/log.server.ts).
import type { Logger } from "pino";
export type LogFormat = "json" | "pretty" | "console";
export declare function logFormat(env?: NodeJS.ProcessEnv): LogFormat;
export declare function readableLine(entry: Record<string, unknown>, options?: { time?: boolean }): string;
export declare function createLog(options?: {
  env?: NodeJS.ProcessEnv;
  bindings?: Record<string, unknown>;
  destination?: { write(line: string): void };
}): Logger;
export declare const LEVEL_NAMES: readonly string[];
export declare const REDACTED_PATHS: readonly string[];
export declare function logSettings(env?: NodeJS.ProcessEnv): { format: LogFormat; level: string; problems: string[] };
export declare function routeConsoleTo(log: Logger): void;
export declare function serializeError(error: unknown): unknown;
