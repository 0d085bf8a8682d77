import { secondaryButtonClass } from "./styles";

/** "Add to calendar": a plain download link (a resource route), so it works without JavaScript. */
export function CalendarLink({ rideId }: { rideId: string }) {
  return (
    <a href={`/rides/${rideId}/calendar.ics`} download className={secondaryButtonClass} data-testid="calendar-download">
      Add to calendar (.ics)
    </a>
  );
}
