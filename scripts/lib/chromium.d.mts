export const FULL_CHROMIUM: string;
export const HEADLESS_SHELL: string;
export function launchOptions(options?: { full?: boolean }): { executablePath: string; args: string[] };
