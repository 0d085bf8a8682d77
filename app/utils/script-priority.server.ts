// A page's JavaScript is fetched at low priority (issue 40, ADR 0061 "Low-priority modules").
//
// Remix's <Scripts> preloads every module of the page (about 110-120 KB gzipped) and the
// browser fetches module preloads at High priority, the class of a parser-blocking script.
// Nothing in the first paint waits for them (every page is whole without JavaScript), yet on
// a phone's slow link they compete with the stylesheet the paint does wait for, and
// Lighthouse's simulation counts every High-priority script that finished before the observed
// paint as render-blocking (LCP 2.5-3.3 s whenever this host painted late). At low priority
// they are still fetched at once and run as soon as they arrive: unlike the reverted
// deferral, the scripts start as before and the load event still waits for them, so nothing
// acts on the page before hydration any longer than it did.
//
// Only an attribute of the preload links changes, which React does not compare when it
// hydrates a production build.

const PRELOAD = /<link rel="modulepreload" href=/g;

/** The page's HTML with its module preloads fetched at low priority. */
export function lowPriorityModules(html: string): string {
  return html.replace(PRELOAD, '<link rel="modulepreload" fetchpriority="low" href=');
}
