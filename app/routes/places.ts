// Place suggestions for the pickup/drop fields' <datalist> (app/components/place-input.tsx):
// the 455 places stay on the server, the browser asks for the few matching what is typed.
// Public, read-only data; no D1, so it is cheap to ask on every keystroke.
import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { suggestPlaces } from "~/models/places.server";

export function loader({ request }: LoaderFunctionArgs) {
  const q = (new URL(request.url).searchParams.get("q") ?? "").slice(0, 100);
  const places = suggestPlaces(q, 8).map((p) => ({ name: p.name, kind: p.kind }));
  return Response.json({ places }, { headers: { "Cache-Control": "public, max-age=86400" } });
}
