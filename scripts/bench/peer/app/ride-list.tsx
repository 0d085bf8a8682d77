import { CLASSES, card, type Ride } from "./rides";

/** The floor's page body; limit.ts writes the same markup from template strings. */
export function RideList({ rides }: { rides: Ride[] }) {
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
