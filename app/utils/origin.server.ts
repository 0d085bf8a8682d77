// CSRF defence that runs before Remix: a state-changing request that a browser marks as
// coming from another site is refused. Requests with neither header come from
// non-browser clients (curl, tests), which carry no ambient cookies worth forging.
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSiteWrite(request: Request): boolean {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return false;
  return isCrossSite(request);
}

export function isCrossSite(request: Request): boolean {
  const fetchSite = request.headers.get("Sec-Fetch-Site");
  if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") return true;
  const origin = request.headers.get("Origin");
  if (origin !== null && origin !== new URL(request.url).origin) return true;
  return false;
}
