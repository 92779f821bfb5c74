// Types for oidc-peer.mjs (the local OpenID provider standing in for Feide and Vipps in tests).

export interface PeerAccount {
  sub: string;
  claims: Record<string, unknown>;
  groups?: Array<Record<string, unknown>> | "down" | "garbage";
}

export interface PeerOptions {
  kind: "feide" | "vipps";
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  redirectUris: string[];
  accounts?: Record<string, PeerAccount>;
}

export interface Peer {
  issuer: string;
  port: number;
  userinfoUrl: string;
  groupsUrl: string | undefined;
  addAccount(login: string, account: PeerAccount): void;
  close(): Promise<void>;
}

export function startOidcPeer(options: PeerOptions): Promise<Peer>;
export function emne(
  code: string,
  options?: { active?: boolean; fsroles?: string[]; notBefore?: string; notAfter?: string; version?: string; name?: string },
): Record<string, unknown>;
export function orgGroup(): Record<string, unknown>;
export const DEFAULT_FEIDE_ACCOUNTS: Readonly<Record<string, PeerAccount>>;
export const DEFAULT_VIPPS_ACCOUNTS: Readonly<Record<string, PeerAccount>>;
