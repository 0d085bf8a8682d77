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
