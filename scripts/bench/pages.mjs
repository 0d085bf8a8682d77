// The pages the bench measures, named as its reports name them; shared by run.mjs and
// toolchains.mjs so both measure the same list.
export function pagesFor(manifest) {
  const date = new Date(Date.now() + 5.5 * 3_600_000 + 3 * 86_400_000).toISOString().slice(0, 10);
  return [
    { name: "/healthz (no D1)", path: "/healthz", anonymous: true },
    // Signed in, / redirects to /dashboard; the landing page is what visitors get.
    { name: "/ (visitor)", path: "/", anonymous: true },
    { name: "/rides", path: "/rides" },
    { name: "/rides (filters)", path: `/rides?q=Koramangala&maxCost=30&date=${date}` },
    // A cost cap alone: few rides are that cheap, so the page must not walk every upcoming ride (ADR 0037).
    { name: "/rides (cost cap)", path: "/rides?maxCost=20" },
    // Issue 14: from A to B around a time, the default 2 km and ±15 min and the widest 10 km and ±60 min.
    { name: "/rides (distance search)", path: `/rides?from=Koramangala&to=Manyata+Tech+Park&date=${date}&time=09:00` },
    {
      name: "/rides (distance search, 10 km ±60 min)",
      path: `/rides?from=HSR+Layout&to=Whitefield+ITPL&date=${date}&time=08:30&radius=10&window=60`,
    },
    // Its "Next page": a wide search reads more candidates for each later page (ADR 0049).
    {
      name: "/rides (distance search, 10 km ±60 min, page 2)",
      path: `/rides?from=HSR+Layout&to=Whitefield+ITPL&date=${date}&time=08:30&radius=10&window=60&page=2`,
    },
    // Issue 36: along the route, the pickup mid-route (the corridor index, ADR 0049).
    {
      name: "/rides (along the route)",
      path: `/rides?from=Bellandur&to=Electronic+City&date=${date}&time=08:50&radius=5&window=30`,
    },
    {
      name: "/rides (weekday commutes, 10 km ±60 min)",
      path: `/rides?from=HSR+Layout&to=Whitefield+ITPL&time=08:30&radius=10&window=60&mode=weekdays&weekdays=mon&weekdays=tue&weekdays=wed&weekdays=thu&weekdays=fri`,
    },
    { name: "/rides/{id}", path: `/rides/${manifest.rideId}` },
    { name: "/dashboard", path: "/dashboard" },
    { name: "/dashboard/rides (Manage Bookings)", path: "/dashboard/rides?tab=manage" },
    { name: "/dashboard/messages (1,000-message chat)", path: `/dashboard/messages?c=${manifest.conversationId}` },
    { name: "/communities", path: "/communities" },
    { name: "/communities/{id}", path: `/communities/${manifest.communityId}` },
    // Issue 14: the busy user's commute page (pattern, 14 days, its riders' requests).
    ...(manifest.busyCommuteId ? [{ name: "/commutes/{id}", path: `/commutes/${manifest.busyCommuteId}` }] : []),
  ];
}

/** The D1 figures of a response's `Server-Timing` (DEBUG_TIMING=1): queries, rows_read. */
export function serverTiming(headers) {
  const m = /d1;(?:dur=[\d.]+;)?desc="([^"]*)"/.exec(headers.get("Server-Timing") ?? "");
  const out = {};
  for (const part of (m?.[1] ?? "").split(" ")) {
    const [k, v] = part.split("=");
    if (k) out[k] = Number(v);
  }
  return out;
}
