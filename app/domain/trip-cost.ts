// The cost suggestion for a new ride, kept apart from rides.ts because it needs the place list:
// pages that only show prices (booking) then do not load every place in their initial JS.
import { formatRupees, seatPricePaise } from "./money";
import { straightLineKm } from "./places";
import { CAR_TYPE_LABEL, FUEL_COST_PAISE_PER_KM, ROAD_FACTOR, type CarType } from "./ride-limits";

export type CostSuggestion = {
  straightKm: number;
  roadKm: number;
  carType: CarType;
  ratePaisePerKm: number;
  /** Whole rupees, as paise. */
  paise: number;
  explanation: string;
};

const oneDecimal = (n: number) => (Math.round(n * 10) / 10).toFixed(1);

/** The fair trip cost for a straight-line distance: road km × fuel cost per km, in whole rupees. */
function tripPaise(straightKm: number, carType: CarType): number {
  const rate = FUEL_COST_PAISE_PER_KM[carType] ?? FUEL_COST_PAISE_PER_KM.petrol;
  return Math.round((straightKm * ROAD_FACTOR * rate) / 100) * 100;
}

/** The points a ride was created with and its car: what its fair cost is worked out from. */
export type FairCostFacts = {
  fromLat: number | null;
  fromLng: number | null;
  toLat: number | null;
  toLng: number | null;
  vehicleType: string | null;
  seats: number;
};

/**
 * A seat's fair share of the trip, in paise: the suggestion the create form made for this
 * route and car (suggestTripCost), split over the seats offered with the one rounding rule
 * (seatPricePaise). The ride's own points are used, so a place renamed later moves no label.
 * Null when the ride has no points (older rides) or starts where it ends: no label then.
 */
export function fairSeatPaise(r: FairCostFacts): number | null {
  if (r.fromLat == null || r.fromLng == null || r.toLat == null || r.toLng == null || r.seats <= 0) return null;
  const km = straightLineKm({ lat: r.fromLat, lng: r.fromLng }, { lat: r.toLat, lng: r.toLng });
  const car = (r.vehicleType && r.vehicleType in FUEL_COST_PAISE_PER_KM ? r.vehicleType : "petrol") as CarType;
  const fair = seatPricePaise(tripPaise(km, car), r.seats);
  return fair > 0 ? fair : null;
}

/** straight-line km × road factor × fuel cost per km, rounded to whole rupees. */
export function suggestTripCost(
  from: string,
  to: string,
  carType: CarType,
  // The server passes the full place list's lookup; the browser one built from the 29 curated
  // places its loader sends (the table is then not part of the page's JavaScript).
  lookup: (name: string) => { name: string; lat: number; lng: number } | undefined,
): CostSuggestion | null {
  const a = lookup(from);
  const b = lookup(to);
  if (!a || !b || a.name === b.name) return null;
  const straightKm = straightLineKm(a, b);
  const roadKm = straightKm * ROAD_FACTOR;
  const ratePaisePerKm = FUEL_COST_PAISE_PER_KM[carType] ?? FUEL_COST_PAISE_PER_KM.petrol;
  const paise = tripPaise(straightKm, carType);
  const rate = `₹${ratePaisePerKm / 100}`;
  const explanation =
    `${oneDecimal(straightKm)} km straight line × ${ROAD_FACTOR} road factor = ${oneDecimal(roadKm)} km × ` +
    `${rate}/km (${CAR_TYPE_LABEL[carType]}) = ${formatRupees(paise, { decimals: 0 })}`;
  return { straightKm, roadKm, carType, ratePaisePerKm, paise, explanation };
}
