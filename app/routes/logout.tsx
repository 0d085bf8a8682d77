import { redirect, type ActionFunctionArgs } from "@remix-run/cloudflare";
import { getSocketSession } from "~/models/sessions.server";
import { endUserSession, readSessionId } from "~/utils/auth.server";
import { closeSessionSockets } from "~/utils/realtime.server";
import { redirectWithToast } from "~/utils/toast.server";

// No GET changes data: visiting /logout only goes home.
export async function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const sessionId = await readSessionId(request, context.env);
  const session = sessionId ? await getSocketSession(context, sessionId) : null;
  const cookie = await endUserSession(request, context);
  // After the row is gone (a reconnect is refused): this session's open sockets are closed too.
  if (sessionId && session) await closeSessionSockets(context, session.userId, sessionId);
  return redirectWithToast(
    request,
    context.env,
    "/",
    { title: "Signed out successfully", description: "Come back soon!" },
    { headers: { "Set-Cookie": cookie } },
  );
}
