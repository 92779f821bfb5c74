// Types of scripts/metrics.mjs for the TypeScript that uses it (scripts/metrics.test.ts).
import type cluster from "node:cluster";
import type { RequestHandler } from "express";

export declare const BUCKETS: number[];
export interface MetricsAccess {
  loopback: boolean;
  token: string | null;
}
export declare function metricsAccess(env?: Record<string, string | undefined>): MetricsAccess | null;
export declare function isLoopbackAddress(address: string | undefined): boolean;
export declare function metricsDecision(
  access: MetricsAccess | null,
  request: { remoteAddress: string | undefined; headers: Record<string, string | string[] | undefined> },
): "serve" | "unauthorized" | "hidden";

export interface PoolFigures {
  total: number;
  idle: number;
  waiting: number;
  max: number;
}
export interface ReminderFigures {
  sent: number;
  failed: number;
}
export interface ProcessFigures {
  role: "app" | "primary";
  pid: number;
  uptime: number;
  rss: number;
  lagP99: number;
  lagMax: number;
}
export interface Snapshot {
  requests?: [route: string, method: string, status: string, count: number][];
  durations?: [route: string, counts: number[], sum: number, count: number][];
  pool?: PoolFigures | null;
  reminders?: ReminderFigures | null;
  process?: ProcessFigures;
}
export interface Merged {
  requests: [string, string, string, number][];
  durations: [string, number[], number, number][];
  pool: PoolFigures | null;
  reminders: ReminderFigures;
  processes: ProcessFigures[];
}
export declare function createRequestMetrics(): {
  observe(request: {
    route: string | undefined;
    method: string;
    status: number;
    seconds: number;
    aborted?: boolean;
  }): void;
  snapshot(): Required<Pick<Snapshot, "requests" | "durations">>;
};
export declare function processFigures(role: "app" | "primary"): ProcessFigures;
export declare function observeRequest(
  record: { route?: string; method: string; began: number },
  status: number,
  aborted?: boolean,
): void;
export declare function mergeSnapshots(snapshots: (Snapshot | Merged | null | undefined)[]): Merged;
export declare function formatMetrics(merged: Merged, options?: { stale?: number }): string;
export declare function metricsEndpoint(options: {
  appStats?: () => Promise<{ pool: PoolFigures | null; reminders: ReminderFigures } | undefined> | undefined;
  access?: MetricsAccess | null;
}): RequestHandler;
export declare function aggregateClusterMetrics(
  clusterOf?: typeof cluster,
  options?: { access?: MetricsAccess | null; collectMs?: number },
): void;
