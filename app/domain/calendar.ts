/**
 * How long a calendar entry for a ride lasts: rides store only a departure, so the end is
 * an estimate from the distance at Bengaluru's peak-hour pace (about 20 km/h), rounded up
 * to 15 minutes, between 30 minutes and 3 hours; one hour when the distance is unknown.
 */
export function estimatedRideMinutes(distanceKm: number | null | undefined): number {
  if (!distanceKm || distanceKm <= 0) return 60;
  const minutes = Math.ceil(((distanceKm / 20) * 60) / 15) * 15;
  return Math.min(180, Math.max(30, minutes));
}

// C0 and C1 controls (CR, LF, tab, NEL...) and the Unicode line and paragraph separators.
// eslint-disable-next-line no-control-regex
const NOT_ONE_LINE = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/g;

/**
 * Stored text (a name, a place) as an iCalendar value: every control character and line
 * break becomes a space. The ics library escapes only CRLF and LF, and calendar apps also
 * break lines at a bare CR, so a CR in a driver's name began a property of its own in
 * riders' feeds (issue 34, finding 11). The schemas refuse such text now; rows stored
 * before that, or by other paths, are made safe here.
 */
export function calendarText(value: string): string {
  return value.replace(NOT_ONE_LINE, " ");
}
