import type { AppLoadContext, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { RideList } from "../ride-list";
import { nextRides } from "../rides";

export const meta: MetaFunction = () => [{ title: "Rides" }];

// The peer fills only `env.DB` of the load context (server.ts); the repo's typing of the context
// is LoopRide's.
export async function loader({ context }: { context: AppLoadContext }) {
  return { rides: await nextRides(context.env.DB) };
}

export default function Rides() {
  const { rides } = useLoaderData<typeof loader>();
  return <RideList rides={rides} />;
}
