// Types for oidc-peer.mjs (the test accounts on the local OpenID providers of scripts/oidc-peer.mjs).
import type { Peer, PeerAccount, PeerOptions } from "../../scripts/oidc-peer.mjs";

export type { Peer, PeerAccount, PeerOptions };
export function startOidcPeer(options: PeerOptions): Promise<Peer>;
export function emne(
  code: string,
  options?: {
    active?: boolean;
    fsroles?: string[];
    notBefore?: string;
    notAfter?: string;
    version?: string;
    name?: string;
  },
): Record<string, unknown>;
export function orgGroup(): Record<string, unknown>;
export const DEFAULT_FEIDE_ACCOUNTS: Readonly<Record<string, PeerAccount>>;
export const DEFAULT_VIPPS_ACCOUNTS: Readonly<Record<string, PeerAccount>>;
