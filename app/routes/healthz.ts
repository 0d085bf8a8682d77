// The benchmark's floor: a resource route of the same worker that touches no D1 and
// renders nothing, so its latency is what routing + the Remix handler cost alone.
export function loader() {
  return new Response("ok", { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}
