import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { handleTripIntent } from "~/intents/trip.server";
import { requireUser } from "~/utils/auth.server";

// The trip-day forms of a ride's page post here (issue 37); the page itself is the ride's.
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return redirect(`/rides/${encodeURIComponent(params.id ?? "")}`);
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleTripIntent(request, context, user.id, params.id ?? "", await request.formData());
}
