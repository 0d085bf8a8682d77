// Calibration worker for the CPU profile in `npm run bench` (ADR 0027), never deployed: one
// route that burns CPU for a given number of iterations and one that only waits, so the
// profiler can be shown to count the first and not the second.
export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.pathname === "/spin") {
      const n = Number(url.searchParams.get("n") ?? 1e6);
      let x = 0;
      for (let i = 0; i < n; i++) x = (x * 31 + i) % 1000003;
      return new Response(String(x));
    }
    if (url.pathname === "/wait") {
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get("ms") ?? 50)));
      return new Response("waited");
    }
    return new Response("ok");
  },
};
