// Every action in the app reads an HTML form (request.formData()). A write whose body is
// not a readable form (JSON, plain text, a multipart body whose boundary does not match)
// would make formData() throw inside the action and surface as a 500; it is refused here,
// before Remix runs, with a 4xx that says what is wrong. Browsers never send such bodies.
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The largest form body read: a 5 MB photo and its form fields. */
export const MAX_FORM_BYTES = 5 * 1024 * 1024 + 64 * 1024;
// The profile page's action refuses an oversized photo itself (with the page and a
// message), by its Content-Length, without reading it; every other form that large is
// refused here. (.data is the same action posted by the browser with JavaScript.)
const UPLOAD_PATHS = new Set(["/dashboard/profile", "/dashboard/profile.data"]);

export function declaredLength(request: Request): number | null {
  const value = request.headers.get("Content-Length");
  return value !== null && /^\d+$/.test(value) ? Number(value) : null;
}

export async function refuseUnreadableForm(request: Request): Promise<Response | null> {
  const method = request.method.toUpperCase();
  // The network can deliver a GET or HEAD with a body (fetch cannot make one); Remix copies
  // the request with its body, which throws and answered 500 on every route (issue 34).
  if ((method === "GET" || method === "HEAD") && request.body !== null) {
    return new Response("A GET or HEAD request cannot have a body.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  if (SAFE_METHODS.has(method)) return null;
  // A bodiless POST (e.g. signing out from a script) has nothing to misread.
  if (request.body === null) return null;
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) {
    return new Response("Send the form as application/x-www-form-urlencoded or multipart/form-data.", {
      status: 415,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  const length = declaredLength(request);
  if (length !== null && length > MAX_FORM_BYTES) {
    if (UPLOAD_PATHS.has(new URL(request.url).pathname)) return null;
    return new Response("The form is too large.", {
      status: 413,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  try {
    await request.clone().formData();
  } catch {
    return new Response("The form could not be read. Please submit it again.", {
      status: 400,
      headers: { "Content-Type": "text/plain; charset=utf-8" },
    });
  }
  return null;
}
