import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getPhotoForViewer } from "~/models/photos.server";
import { getUser } from "~/utils/auth.server";

// A profile photo, for signed-in people who may see it (app/models/photos.server.ts).
// Everyone else gets the same 404 as for a photo that does not exist: a visitor or a
// stranger learns nothing about whose photos exist.
function notFound() {
  return new Response("Not found", {
    status: 404,
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" },
  });
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await getUser(request, context);
  if (!user || !params.userId || !params.version) return notFound();
  const photo = await getPhotoForViewer(context, user.id, params.userId, params.version);
  if (!photo) return notFound();
  // The URL names the photo's content, so a browser may keep it for a year; `private`
  // keeps it out of shared caches (the answer depends on who asks), and `Vary: Cookie`
  // keeps the next person signing in on the same browser from being shown it from the
  // cache when the worker would refuse them.
  const headers = new Headers({
    "Content-Type": "image/jpeg",
    "Cache-Control": "private, max-age=31536000, immutable",
    Vary: "Cookie",
    ETag: `"${params.version}"`,
    "Content-Length": String(photo.size),
  });
  if (request.headers.get("If-None-Match") === `"${params.version}"`) {
    await photo.body.cancel();
    headers.delete("Content-Length");
    return new Response(null, { status: 304, headers });
  }
  return new Response(photo.body, { headers });
}
