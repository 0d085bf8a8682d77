import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { safeRedirect } from "~/utils/auth.server";
import { getAuthenticator, googleConfigured, returnToCookie } from "~/utils/authenticator.server";
import { redirectWithToast } from "~/utils/toast.server";

// Starting an OAuth flow is a POST, like every other action.
export async function loader() {
  return redirect("/login");
}

export async function action({ request, context }: ActionFunctionArgs) {
  if (!googleConfigured(context.env)) {
    return redirectWithToast(request, context.env, "/login", {
      title: "Google sign-in is not configured on this server.",
      type: "error",
    });
  }
  const formData = await request.clone().formData();
  const to = formData.get("redirectTo");
  try {
    await getAuthenticator(request, context).authenticator.authenticate("google", request);
  } catch (e) {
    if (e instanceof Response && to) {
      // Remember where the user was going, across the round trip to Google.
      const headers = new Headers(e.headers);
      headers.append("Set-Cookie", await returnToCookie(request).serialize(safeRedirect(to)));
      return new Response(null, { status: e.status, headers });
    }
    if (e instanceof Response) return e;
    console.error(e);
    return redirectWithToast(request, context.env, "/login", {
      title: "Error",
      description: "Failed to sign in with Google",
      type: "error",
    });
  }
  return redirect("/login");
}
