import type { ChildProcess, StdioOptions } from "node:child_process";
export function freePort(): Promise<number>;
export function waitFor(url: string, ms: number, opts?: { child?: ChildProcess; stderr?: () => string }): Promise<void>;
export function startWrangler(opts: {
  port: number | string;
  persist?: string;
  vars?: Record<string, string>;
  inspectorPort?: number;
  stdio?: StdioOptions;
  detached?: boolean;
  env?: NodeJS.ProcessEnv;
  /** Another wrangler.toml (the bench's CPU calibration worker). */
  config?: string;
  /** Serve wrangler's /__scheduled route (npm start, ADR 0040). */
  testScheduled?: boolean;
}): Promise<ChildProcess>;
/** `npm start`'s server: local e-mail sink and mailbox, and the scheduled route. */
export function startLocalServer(
  opts: Omit<Parameters<typeof startWrangler>[0], "vars" | "testScheduled">,
): Promise<ChildProcess>;
export function stopGroup(child: ChildProcess): void;
