// Types of scripts/service.mjs for the TypeScript that uses it (its tests).
export interface Account {
  name: string;
  uid: number;
  gid: number;
}
export declare const DEFAULT_GRACE_SECONDS: number;
export declare const APP_FILES: string[];
export declare class ServiceError extends Error {}
export declare function listenHost(env: Record<string, string | undefined>, demoMode: boolean): string;
export declare function urlHost(host: string): string;
export declare function shutdownGraceSeconds(env?: Record<string, string | undefined>): number;
export declare function cannotListenMessage(error: unknown, host: string, port: number): string | null;
export declare function checkCanListen(port: number, host: string): Promise<string | null>;
export declare function findUser(wanted: string | number, passwd?: string): Account | null;
export declare function runAsAccount(options?: {
  env?: Record<string, string | undefined>;
  dataDir?: string;
  uid?: number;
  passwd?: string;
}): Account | null;
export declare function prepareForAccount(options: {
  account: Account;
  dataDir: string;
  writableDirs?: string[];
  readable?: string[];
}): void;
