export function requireSecret(env: Env, name: "SESSION_SECRET" | "PASSWORD_PEPPER"): string {
  const value = env[name];
  if (!value) throw new Error(`${name} is not configured: set it in .dev.vars locally or with \`wrangler secret put ${name}\`.`);
  return value;
}

export function isSecureRequest(request: Request): boolean {
  return new URL(request.url).protocol === "https:";
}
