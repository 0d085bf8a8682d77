// CSRF defence that runs before Remix: a state-changing request that a browser marks as
// coming from another site is refused. Requests with neither header come from
// non-browser clients (curl, tests), which carry no ambient cookies worth forging.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  return isCrossSite(request) || !originMatchesHost(request);
}

export function isCrossSite(request: Request): boolean {
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== new URL(request.url).origin) return true;
  return false;
}

/**
 * Remix refuses an action whose Origin names another host than X-Forwarded-Host (its first
 * value) or else Host, but by throwing, which answers 500. The same comparison here turns it
 * into the 403 of every other cross-site write, before Remix runs.
 */
function originMatchesHost(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin === null) return true;
  const forwarded = request.headers.get("X-Forwarded-Host")?.split(",")[0]?.trim();
  const host = forwarded || request.headers.get("Host") || new URL(request.url).host;
  return URL.canParse(origin) && new URL(origin).host === host;
}
