// The browser fetches no JavaScript before the page's first paint (issue 40, ADR 0061).
//
// Remix's <Scripts> preloads every module of the page and starts it from an inline module
// script, so on a phone's slow 4G link some 130 KB of JavaScript shares the bandwidth with
// the HTML and the stylesheet the first paint waits for. Every page works without JavaScript,
// so it can wait: the preloads are sent inert and the module script as a string that a
// classic script starts once the first frame is painted.
//
// Only attributes and script text change, never the elements, so hydration still finds the
// markup React rendered (React does not compare either when it hydrates a production build).
// The started module script is the one element React did not render: entry.client removes it
// before it hydrates.

export const BOOT_SCRIPT_ATTRIBUTE = "data-lr-boot";
const INERT_PRELOAD = "lr-modulepreload";

const PRELOAD = /<link rel="modulepreload" /g;
const MODULE_SCRIPT = /<script( nonce="[^"]*")? type="module" async="">([\s\S]*?)<\/script>/;

// Runs where the module script stood. It starts the modules once the browser reports the first
// contentful paint, which it does when the frame is on screen: on a busy phone that is well
// after the frame was drawn, and requestAnimationFrame alone started the download too early. A
// browser without paint timing starts after the next frame; a hidden tab paints nothing until
// it is shown, so it starts at once; and if no paint is ever reported, it starts after 3 s.
const boot = (src: string) =>
  `(function(src){var n=document.currentScript.nonce,done=0,P=window.PerformanceObserver;function go(){` +
  `if(done)return;done=1;var l=document.querySelectorAll('link[rel="${INERT_PRELOAD}"]');` +
  `for(var i=0;i<l.length;i++)l[i].rel="modulepreload";` +
  `var s=document.createElement("script");s.type="module";s.nonce=n;` +
  `s.setAttribute("${BOOT_SCRIPT_ATTRIBUTE}","");s.textContent=src;document.head.appendChild(s)}` +
  `if(document.visibilityState!=="visible")go();` +
  `else if(P&&P.supportedEntryTypes&&P.supportedEntryTypes.indexOf("paint")>=0){` +
  `new P(function(e,o){if(e.getEntriesByName("first-contentful-paint").length){o.disconnect();setTimeout(go,0)}})` +
  `.observe({type:"paint",buffered:true});setTimeout(go,3000)}` +
  `else requestAnimationFrame(function(){setTimeout(go,0)})})` +
  `(${JSON.stringify(src).replace(/</g, "\\u003c")});`;

/** The page's HTML with its JavaScript started after the first paint. */
export function paintFirst(html: string): string {
  const script = MODULE_SCRIPT.exec(html);
  if (!script) return html;
  const [tag, nonce = "", src] = script;
  const start = script.index;
  return (
    html.slice(0, start).replace(PRELOAD, `<link rel="${INERT_PRELOAD}" `) +
    `<script${nonce}>${boot(src)}</script>` +
    html.slice(start + tag.length)
  );
}
