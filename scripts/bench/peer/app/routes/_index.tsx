import type { AppLoadContext, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { CLASSES, card, nextRides } from "../rides";

export const meta: MetaFunction = () => [{ title: "Rides" }];

// The peer fills only `env.DB` of the load context (server.ts); the repo's typing of the context
// is LoopRide's.
export async function loader({ context }: { context: AppLoadContext }) {
  return { rides: await nextRides(context.env.DB) };
}

export default function Rides() {
  const { rides } = useLoaderData<typeof loader>();
  return (
    <main>
      <h1 className="sr-only">Rides</h1>
      <ul className={CLASSES.list}>
        {rides.map((ride) => {
          const c = card(ride);
          return (
            <li key={ride.id} className={CLASSES.item}>
              <a className={CLASSES.link} href={c.href}>
                <h2 className={CLASSES.route}>{c.route}</h2>
                <p className={CLASSES.when}>{c.when}</p>
                <p className={CLASSES.seats}>{c.seats}</p>
                <p className={CLASSES.driver}>{c.driver}</p>
              </a>
            </li>
          );
        })}
      </ul>
    </main>
  );
}
