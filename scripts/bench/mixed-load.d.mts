// Types for mixed-load.mjs (used from test/e2e/load.spec.ts).
export class Client {
  constructor(baseURL: string, opts?: { timeoutMs?: number });
  cookieHeader(): string;
  /** GETs resent after a stale kept-alive connection. */
  retried?: number;
  get(path: string): Promise<{ status: number; location: string | null; text: string; headers: Headers }>;
  post(
    path: string,
    fields: Record<string, string | number | undefined>,
  ): Promise<{ status: number; location: string | null; text: string; headers: Headers }>;
}
export function signIn(baseURL: string, identifier: string, password: string): Promise<Client>;
export function signUpAndOnboard(
  baseURL: string,
  user: {
    fullName: string;
    email: string;
    password: string;
    phone: string;
    car?: "petrol" | "diesel" | "hybrid" | "electric" | null;
  },
): Promise<Client>;
export type MixedLoadResult = {
  requests: number;
  errors: number;
  byAction: Record<string, { n: number; statuses: Record<string, number> }>;
  statuses: Record<string, number>;
  errorSamples: Array<{ action: string; status: string | number; detail: string }>;
  /** GETs retried once after a stale kept-alive connection (as browsers do). */
  retriedGets: number;
  seconds: number;
  requestsPerSecond: number;
  rides: string[];
};
export function mixedLoad(opts: {
  users: Array<{ client: Client; id: string; driver: boolean }>;
  durationMs?: number;
  log?: (message: string) => void;
}): Promise<MixedLoadResult>;
