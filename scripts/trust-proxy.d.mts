// Types of scripts/trust-proxy.mjs for the TypeScript that uses it (app/services/platform/env.server.ts).
export type TrustProxy = false | number | string[];
export declare class TrustProxyError extends Error {}
export declare function parseTrustProxy(value: string | undefined): TrustProxy;
export declare function describeTrustProxy(setting: TrustProxy): string;
