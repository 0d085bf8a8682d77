import { Scripts, ScrollRestoration, useMatches } from "@remix-run/react";

/**
 * A route's `handle` that leaves the page's JavaScript out (issue 40, ADR 0061 "A landing page
 * without JavaScript"). Only for a page where every action is a link or a real form post, so
 * nothing is lost: it is then its HTML and stylesheet, with no module to fetch, evaluate or
 * hydrate on a phone. This is Remix's own pattern ("Disabling JavaScript" in its guides).
 * scripts/lib/initial-js.mjs reads the same flag from the route's source to count 0 KB.
 */
export type ScriptsHandle = { scripts?: false };

export const NO_SCRIPTS: ScriptsHandle = { scripts: false };

const withoutScripts = (handle: unknown) => (handle as ScriptsHandle | undefined)?.scripts === false;

/** Remix's scripts and scroll restoration, unless a matched route's handle turns them off. */
export function PageScripts({ nonce }: { nonce: string }) {
  const matches = useMatches();
  // Only the server's render leaves them out. A browser that renders such a page got there by
  // a client-side navigation from a page that hydrated: the app already runs, and unmounting
  // would only drop ScrollRestoration's listeners until the next page.
  if (typeof document === "undefined" && matches.some((m) => withoutScripts(m.handle))) return null;
  return (
    <>
      <ScrollRestoration nonce={nonce} />
      <Scripts nonce={nonce} />
    </>
  );
}
