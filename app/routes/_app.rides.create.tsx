import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { CreateRideForm } from "~/components/create-ride-form";
import { BackLink } from "~/components/ride-form-ui";
import { ALL_PLACES } from "~/domain/curated-places";
import { istDate } from "~/domain/time";
import { handleCreateRide } from "~/intents/ride-publish.server";
import { communityRulesFrom, myCommunityRulesQuery } from "~/models/community-policy.server";
import { getCreateRideContext } from "~/models/ride-publishing.server";
import { requireUser } from "~/utils/auth.server";
import { backHref } from "~/utils/back-link.server";

export const meta: MetaFunction = () => [{ title: "Create a New Ride | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { also, ...ctx } = await getCreateRideContext(context, user.id, [myCommunityRulesQuery(context.db, user.id)]);
  const rules = communityRulesFrom(also[0]);
  // The curated places (tech parks, hubs) for the live cost suggestion: sent as data rather
  // than bundled, which keeps this page within its initial-JS budget. Issue 16: each
  // community's rules (women-only, approved pickup points), data too.
  const communities = ctx.communities.map((c) => ({ ...c, ...rules.find((r) => r.id === c.id) }));
  return { ...ctx, communities, today: istDate(), curated: ALL_PLACES, back: backHref(request, "/dashboard/rides") };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleCreateRide(request, context, user.id, await request.formData());
}

export default function CreateRide() {
  const page = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <div className="flex items-center gap-3">
        <BackLink href="/rides">Back</BackLink>
        <h1 className="text-2xl font-bold">Create a New Ride</h1>
      </div>
      <CreateRideForm {...page} lastResult={useActionData<typeof action>()} />
    </div>
  );
}
