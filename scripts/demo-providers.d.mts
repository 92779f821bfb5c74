// Types of scripts/demo-providers.mjs for the TypeScript that uses it (its tests).
import type { Peer, PeerAccount, PeerChoice } from "./oidc-peer.mjs";

type Env = Record<string, string | undefined>;
export declare function isDemo(env: Env): boolean;
export declare function demoProviderKinds(env: Env): ("feide" | "vipps")[];
export declare function semesterOf(today: Date): { start: string; end: string };
export declare function demoPeople(
  today?: Date,
): Record<"feide" | "vipps", { choice: PeerChoice; account: PeerAccount }[]>;
export declare function startDemoProviders(options: {
  kinds: ("feide" | "vipps")[];
  appPort: number;
  appUrl?: string;
  today?: Date;
}): Promise<{ env: Record<string, string>; peers: Partial<Record<"feide" | "vipps", Peer>>; close(): Promise<void> }>;
