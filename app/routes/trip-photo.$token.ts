import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getSharedTripPhoto } from "~/models/trip-shares.server";
import { orText } from "~/utils/errors.server";

// The driver's photo on a share-my-trip page: only while the link works (issue 37).
export async function loader({ params, context }: LoaderFunctionArgs) {
  const photo = await orText(getSharedTripPhoto(context, params.token ?? ""), { notFound: "Not found" });
  if (!photo) return new Response("Not found", { status: 404, headers: { "Cache-Control": "no-store" } });
  return new Response(photo.body, {
    headers: { "Content-Type": "image/jpeg", "Cache-Control": "private, no-store", "Referrer-Policy": "no-referrer" },
  });
}
