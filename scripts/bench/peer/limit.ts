import { CLASSES, card, nextRides, type Ride } from "./app/rides";

// "The limit" (issue 40, ADR 0060): the peer's page from template strings, after the same D1
// query: the markup the Remix route renders (the document, the cards, the page data for the
// browser), with none of the framework. What no renderer can go below on this machine.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;" };
/** As React escapes text and attribute values. */
const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => ESCAPES[ch]);

function item(ride: Ride) {
  const c = card(ride);
  return (
    `<li class="${CLASSES.item}"><a class="${CLASSES.link}" href="${esc(c.href)}">` +
    `<h2 class="${CLASSES.route}">${esc(c.route)}</h2><p class="${CLASSES.when}">${esc(c.when)}</p>` +
    `<p class="${CLASSES.seats}">${esc(c.seats)}</p><p class="${CLASSES.driver}">${esc(c.driver)}</p></a></li>`
  );
}

/** The page body: app/ride-list.tsx's markup, as React renders it (test/unit/bench-peer.test.ts). */
export function rideListHtml(rides: Ride[]) {
  return `<main><h1 class="sr-only">Rides</h1><ul class="${CLASSES.list}">${rides.map(item).join("")}</ul></main>`;
}

export async function limitPage(db: D1Database): Promise<Response> {
  const rides = await nextRides(db);
  // The data the Remix page hands to the browser, as JSON a script may hold.
  const data = JSON.stringify({ rides }).replace(/</g, "\\u003c");
  const html =
    '<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"/><title>Rides</title></head>' +
    `<body>${rideListHtml(rides)}` +
    `<script>window.__data=${data}</script></body></html>`;
  return new Response(html, { headers: { "Content-Type": "text/html" } });
}
