import type { AppEnv } from "./env.server";
import { redirect } from "@remix-run/cloudflare";
import { appCookie } from "./cookies.server";

export type Toast = { title: string; description?: string; type?: "success" | "error" | "info" };

// The one toast helper: a flash value in a signed cookie, read (and cleared) by the root
// loader and rendered in the HTML, so it shows without JavaScript. One toast at a time.
function toastCookie(request: Request, env: AppEnv) {
  return appCookie<Toast>(request, env, { name: "lr_toast", maxAge: 60 });
}

export async function toastHeader(request: Request, env: AppEnv, toast: Toast): Promise<string> {
  return toastCookie(request, env).serialize(toast);
}

export async function redirectWithToast(
  request: Request,
  env: AppEnv,
  url: string,
  toast: Toast,
  init: { headers?: HeadersInit } = {},
) {
  const headers = new Headers(init.headers);
  headers.append("Set-Cookie", await toastHeader(request, env, toast));
  return redirect(url, { headers });
}

/** Reads the pending toast, and the Set-Cookie that clears it. */
export async function consumeToast(
  request: Request,
  env: AppEnv,
): Promise<{ toast: Toast | null; clear: string | null }> {
  const cookie = toastCookie(request, env);
  const value = await cookie.parse(request);
  if (!value || typeof value !== "object" || typeof value.title !== "string") {
    // An unreadable toast cookie is dropped, not left to fail again on the next page.
    return { toast: null, clear: cookie.present(request) ? await cookie.clear() : null };
  }
  return { toast: value, clear: await cookie.clear() };
}
