export type RunReport = {
  audits: { metrics?: { details?: { items?: { observedFirstContentfulPaint?: number; observedLoad?: number }[] } } };
};
export const WITHHELD_PAINT_MS: number;
export function paintAfterLoad(lhr: RunReport): number | null;
export function paintWithheld(lhr: RunReport): boolean;
export function measureAgain(lhrs: RunReport[], runs: number): boolean;
export function judgedRuns<T extends RunReport>(lhrs: T[]): { judged: T[]; withheld: number; mostWithheld: boolean };
export const CHROME_FLAGS: string[];
