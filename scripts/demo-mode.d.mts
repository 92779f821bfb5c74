// Types for demo-mode.mjs (demo mode's default at start-up).

export declare const DEMO_MARKER: string;

export interface DemoModeInput {
  DEMO_MODE?: string;
  SEED_DEMO?: string;
  databaseUrl?: string;
  SMTP_URL?: string;
  freshDatabase: boolean;
  demoDatabase: boolean;
}

export interface DemoModeDecision {
  on: boolean | undefined;
  set: "true" | "false" | undefined;
  marker: "write" | "remove" | "keep";
  why: string;
}

export declare function demoModeRule(input: DemoModeInput): DemoModeDecision;

export declare function applyDemoMode(options: {
  env?: NodeJS.ProcessEnv;
  dataDir: string;
  databaseUrl?: string;
  freshDatabase: boolean;
  log?: Pick<Console, "info" | "warn">;
}): DemoModeDecision;
