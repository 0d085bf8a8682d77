export type CallFrame = {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
  scriptId?: string;
};
export type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
export type Profile = {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
};
export type Located = { where: string; name: string | null } | null;
export const SAMPLING_INTERVAL_US: number;
export function frameKey(frame: CallFrame, locate?: (url: string, line: number, column: number) => Located): string;
export function splitProfile(
  profile: Profile,
  marks: number[],
  keyOf?: (frame: CallFrame) => string,
): { cpuMs: number; functions: Map<string, number> }[];
export function cpuOfProfile(
  profile: Profile,
  keyOf?: (frame: CallFrame) => string,
): { cpuMs: number; functions: Map<string, number> };
export const r2: (x: number) => number;
export const pct: (xs: number[], p: number) => number;
export function summarize(
  measured: { cpu: number[]; wall: number[]; functions: Map<string, number> },
  top?: number,
): {
  requests: number;
  cpuP50: number;
  cpuP99: number;
  cpuMean: number;
  wallP50: number;
  top: { fn: string; msPerRequest: number; share: number }[];
  byModule: { module: string; msPerRequest: number; share: number }[];
};
export function moduleOf(key: string): string;
