export const BENCH_PASSWORD: string;
export const BENCH_PEPPER: string;
export const BENCH_SESSION_SECRET: string;
export const BUSY_EMAIL: string;
export const PARTNER_EMAIL: string;
export function benchDir(size: "large" | "small"): string;
