// Types for oidc-peer.mjs (a local OpenID provider standing in for Feide or Vipps: tests and the demo).

export interface PeerAccount {
  sub: string;
  claims: Record<string, unknown>;
  groups?: Array<Record<string, unknown>> | "down" | "garbage";
}

export interface PeerChoice {
  login: string;
  label: string;
  description?: string;
}

export interface PeerOptions {
  kind: "feide" | "vipps";
  port?: number;
  host?: string;
  clientId?: string;
  clientSecret?: string;
  redirectUris: string[];
  accounts?: Record<string, PeerAccount>;
  name?: string;
  intro?: string[];
  choices?: PeerChoice[];
}

export interface Peer {
  issuer: string;
  port: number;
  clientId: string;
  clientSecret: string;
  userinfoUrl: string;
  groupsUrl: string | undefined;
  addAccount(login: string, account: PeerAccount): void;
  close(): Promise<void>;
}

export function startOidcPeer(options: PeerOptions): Promise<Peer>;
export function courseGroup(options: {
  org: string;
  code: string;
  name?: string;
  active?: boolean;
  fsroles?: string[];
  notBefore?: string;
  notAfter?: string;
  version?: string;
}): Record<string, unknown>;
export function orgGroup(org: string, name: string): Record<string, unknown>;
