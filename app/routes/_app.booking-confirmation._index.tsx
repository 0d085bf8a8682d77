import { redirect, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { requireUser } from "~/utils/auth.server";

// /booking-confirmation without a request id: the user's booked rides.
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return redirect("/dashboard/rides?tab=booked");
}
