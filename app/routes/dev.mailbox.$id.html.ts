import type { LoaderFunctionArgs } from "@remix-run/cloudflare";
import { getSinkMessage } from "~/models/outbox/transport.server";
import { orRespond } from "~/utils/errors.server";
import { requireDevMailbox } from "~/utils/dev-mailbox.server";

// The HTML part exactly as rendered, in a sandbox of its own: no scripts, no same-origin
// access (the CSP sandbox), so even a rendering bug could not act on this site.
export async function loader({ params, context }: LoaderFunctionArgs) {
  requireDevMailbox(context.env);
  const m = await orRespond(getSinkMessage(context, params.id ?? ""));
  return new Response(m.htmlBody, {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy":
        "sandbox allow-popups allow-top-navigation-by-user-activation; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
    },
  });
}
