// The cost suggestion for a new ride, kept apart from rides.ts because it needs the place list:
// pages that only show prices (booking) then do not load every place in their initial JS.
import { formatRupees } from "./money";
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
  const paise = Math.round((roadKm * ratePaisePerKm) / 100) * 100;
  const rate = `₹${ratePaisePerKm / 100}`;
  const explanation =
    `${oneDecimal(straightKm)} km straight line × ${ROAD_FACTOR} road factor = ${oneDecimal(roadKm)} km × ` +
    `${rate}/km (${CAR_TYPE_LABEL[carType]}) = ${formatRupees(paise, { decimals: 0 })}`;
  return { straightKm, roadKm, carType, ratePaisePerKm, paise, explanation };
}
