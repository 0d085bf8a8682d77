import { safeRedirect } from "./auth.server";

/**
 * Where a "Back" or "Cancel" link goes without JavaScript (with it, history.back()): the page
 * the visitor came from, on this site only. The security headers' Referrer-Policy
 * (strict-origin-when-cross-origin) lets the browser send the whole same-origin URL as Referer,
 * and only the origin cross-site, which is then ignored. A `from` parameter (a link that names
 * its page) wins; when the Referer is this page itself (a form re-shown after a POST without
 * JavaScript), its own `from` is kept. Every candidate passes safeRedirect: no open redirect.
 */
export function backHref(request: Request, fallback: string): string {
  const url = new URL(request.url);
  const from = url.searchParams.get("from");
  if (from) return sameSite(from, url) ?? fallback;
  const referer = request.headers.get("Referer");
  if (!referer || !URL.canParse(referer)) return fallback;
  const ref = new URL(referer);
  if (ref.origin !== url.origin) return fallback;
  if (ref.pathname === url.pathname) {
    const kept = ref.searchParams.get("from");
    return (kept && sameSite(kept, url)) || fallback;
  }
  return sameSite(ref.pathname + ref.search, url) ?? fallback;
}

/** A same-site path other than the page itself (going "back" to it would go nowhere). */
function sameSite(to: string, here: URL): string | null {
  const safe = safeRedirect(to, "");
  if (!safe || new URL(safe, here).pathname === here.pathname) return null;
  return safe;
}

/**
 * The page a form was posted from, when it is on this site (its path and search), else
 * undefined. A list's cards post without a `redirectTo` of their own: repeated on every card
 * of a search page, the page's long address was the largest part of its HTML (issue 36's maps
 * and match facts pushed it past the 60 KB budget). The caller still passes it through
 * safeRedirect.
 */
export function sameSiteReferer(request: Request): string | undefined {
  const referer = request.headers.get("Referer");
  if (!referer || !URL.canParse(referer)) return undefined;
  const ref = new URL(referer);
  return ref.origin === new URL(request.url).origin ? ref.pathname + ref.search : undefined;
}
