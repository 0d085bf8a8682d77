// Seats, notes length and the cost suggestion's rates: the constants the ride forms need.
export const MIN_SEATS = 1;
export const MAX_SEATS = 6;
export const NOTES_MAX = 500;
/** Roads are longer than the straight line between two points. */
export const ROAD_FACTOR = 1.4;
/** What a kilometre of driving costs, by car type, in paise. */
export const FUEL_COST_PAISE_PER_KM = { petrol: 700, diesel: 600, hybrid: 450, electric: 200 } as const;
export type CarType = keyof typeof FUEL_COST_PAISE_PER_KM;
export const CAR_TYPE_LABEL: Record<CarType, string> = {
  petrol: "petrol",
  diesel: "diesel",
  hybrid: "hybrid",
  electric: "electric",
};
