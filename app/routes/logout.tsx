import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { endUserSession } from "~/utils/auth.server";
import { redirectWithToast } from "~/utils/toast.server";

// No GET changes data: visiting /logout only goes home.
export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const cookie = await endUserSession(request, context);
  return redirectWithToast(request, context.env, "/", { title: "Signed out successfully", description: "Come back soon!" }, { headers: { "Set-Cookie": cookie } });
}
