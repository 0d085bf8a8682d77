export const INITIAL_JS_BUDGET: number;
export type InitialJs = { pattern: string; index: boolean; gzipBytes: number; files: string[] };
export function shipsNoScripts(source: string): boolean;
export function initialJsByRoute(clientBuildDir?: string, appDir?: string): { routes: Record<string, InitialJs> };
export function initialJsForPath(
  report: { routes: Record<string, InitialJs> },
  urlPath: string,
): { routeId: string; pattern: string; gzipBytes: number; files: string[] } | undefined;
