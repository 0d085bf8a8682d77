// Namma Metro (issue 36, item 4): every operational station of the Purple, Green and Yellow
// lines, in running order, with its position. Shared by the browser (the route map draws the
// lines) and the server (stations are places: app/models/places.server.ts).
// Source and licence: docs/decisions/0050-route-map-and-namma-metro.md and
// app/domain/GEODATA.md. Positions are rounded to 1e-4 degrees (about 11 m).

export type MetroLine = "purple" | "green" | "yellow";
export const METRO_LINE_NAMES: Record<MetroLine, string> = { purple: "Purple", green: "Green", yellow: "Yellow" };

// [the name people use, BMRCL's full name where it differs, lat, lng]
type Row = readonly [string, string | null, number, number];

const PURPLE: readonly Row[] = [
  ["Whitefield (Kadugodi)", null, 12.9957, 77.7577],
  ["Hopefarm Channasandra", null, 12.9873, 77.7536],
  ["Kadugodi Tree Park", null, 12.9856, 77.7465],
  ["Pattandur Agrahara", null, 12.9876, 77.7377],
  ["Sri Sathya Sai Hospital", null, 12.9812, 77.7273],
  ["Nallurhalli", null, 12.9766, 77.7247],
  ["Kundalahalli", null, 12.9777, 77.7156],
  ["Seetharampalya", null, 12.9812, 77.7087],
  ["Hoodi", null, 12.9889, 77.7112],
  ["Garudacharapalya", null, 12.9936, 77.7035],
  ["Singayyanapalya", null, 12.9966, 77.6924],
  ["KR Puram", "Krishnarajapura", 13.0001, 77.6776],
  ["Benniganahalli", null, 12.9964, 77.6682],
  ["Baiyappanahalli", null, 12.9906, 77.6529],
  ["Swami Vivekananda Road", null, 12.986, 77.6448],
  ["Indiranagar", null, 12.9782, 77.6383],
  ["Halasuru", null, 12.9765, 77.626],
  ["Trinity", null, 12.9729, 77.6167],
  ["MG Road", "Mahatma Gandhi Road", 12.9757, 77.6068],
  ["Cubbon Park", null, 12.981, 77.5973],
  ["Vidhana Soudha", "Dr B R Ambedkar Station Vidhana Soudha", 12.9799, 77.5927],
  ["Central College", "Sir M Visvesvaraya Central College", 12.9742, 77.5843],
  ["Majestic", "Nadaprabhu Kempegowda Station Majestic", 12.9756, 77.5731],
  ["City Railway Station", "Krantivira Sangolli Rayanna Railway Station", 12.976, 77.5658],
  ["Magadi Road", null, 12.9755, 77.5554],
  ["Hosahalli", "Sri Balagangadharanatha Swamiji Hosahalli", 12.9741, 77.5452],
  ["Vijayanagar", null, 12.9709, 77.5372],
  ["Attiguppe", null, 12.9619, 77.5339],
  ["Deepanjali Nagar", null, 12.9521, 77.5368],
  ["Mysuru Road", null, 12.9469, 77.5298],
  ["Nayandahalli", "Pantharapalya Nayandahalli", 12.9418, 77.5235],
  ["Rajarajeshwari Nagar", null, 12.9367, 77.5192],
  ["Jnanabharathi", null, 12.9353, 77.5109],
  ["Pattanagere", null, 12.9242, 77.4982],
  ["Kengeri Bus Terminal", null, 12.9147, 77.4876],
  ["Kengeri", null, 12.908, 77.4764],
  ["Challaghatta", null, 12.8974, 77.4611],
];
const GREEN: readonly Row[] = [
  ["Madavara", null, 13.0573, 77.4728],
  ["Chikkabidarakallu", null, 13.0523, 77.4878],
  ["Manjunath Nagar", null, 13.0503, 77.4944],
  ["Nagasandra", null, 13.0482, 77.5002],
  ["Dasarahalli", null, 13.0436, 77.5123],
  ["Jalahalli", null, 13.0398, 77.5199],
  ["Peenya Industry", null, 13.0365, 77.5253],
  ["Peenya", null, 13.0331, 77.5333],
  ["Goraguntepalya", null, 13.0283, 77.5408],
  ["Yeshwanthpur", null, 13.0233, 77.5498],
  ["Sandal Soap Factory", null, 13.0147, 77.5539],
  ["Mahalakshmi", null, 13.0083, 77.549],
  ["Rajajinagar", null, 13.0004, 77.5498],
  ["Kuvempu Road", "Mahakavi Kuvempu Road", 12.9984, 77.5568],
  ["Srirampura", null, 12.9966, 77.5634],
  ["Sampige Road", "Mantri Square Sampige Road", 12.9903, 77.5706],
  ["Majestic", "Nadaprabhu Kempegowda Station Majestic", 12.9756, 77.5731],
  ["Chickpete", null, 12.9675, 77.5746],
  ["KR Market", "Krishna Rajendra Market", 12.9599, 77.5745],
  ["National College", null, 12.9506, 77.5736],
  ["Lalbagh", null, 12.9463, 77.5798],
  ["South End Circle", null, 12.9384, 77.58],
  ["Jayanagar", null, 12.9298, 77.5799],
  ["RV Road", "Rashtreeya Vidyalaya Road", 12.9217, 77.5803],
  ["Banashankari", null, 12.9156, 77.5735],
  ["JP Nagar", "Jayaprakash Nagar", 12.9078, 77.5729],
  ["Yelachenahalli", null, 12.8963, 77.57],
  ["Konanakunte Cross", null, 12.8888, 77.5625],
  ["Doddakallasandra", null, 12.8847, 77.5528],
  ["Vajarahalli", null, 12.8772, 77.5446],
  ["Thalaghattapura", null, 12.8713, 77.5383],
  ["Silk Institute", null, 12.8619, 77.5299],
];
const YELLOW: readonly Row[] = [
  ["RV Road", "Rashtreeya Vidyalaya Road", 12.9217, 77.5803],
  ["Ragigudda", null, 12.9169, 77.5881],
  ["Jayadeva Hospital", null, 12.9166, 77.5998],
  ["BTM Layout", null, 12.9164, 77.6081],
  ["Silk Board", "Central Silk Board", 12.9163, 77.6204],
  ["Bommanahalli", null, 12.9108, 77.6264],
  ["Hongasandra", null, 12.9016, 77.632],
  ["Kudlu Gate", null, 12.89, 77.6394],
  ["Singasandra", null, 12.8806, 77.6446],
  ["Hosa Road", null, 12.871, 77.6524],
  ["Beratena Agrahara", null, 12.8639, 77.658],
  ["Electronic City", null, 12.8565, 77.6633],
  ["Konappana Agrahara", "Infosys Foundation Konappana Agrahara", 12.8463, 77.6711],
  ["Huskur Road", null, 12.8388, 77.6774],
  ["Hebbagodi", "Biocon Hebbagodi", 12.8287, 77.6812],
  ["Bommasandra", "Delta Electronics Bommasandra", 12.8196, 77.6887],
];

export type MetroStation = {
  /** "Majestic": the name people use (and the place's name with " Metro Station"). */
  name: string;
  /** BMRCL's full name where it differs ("Nadaprabhu Kempegowda Station, Majestic"). */
  fullName: string | null;
  lat: number;
  lng: number;
  /** Every line stopping there: two at an interchange (Majestic, RV Road). */
  lines: MetroLine[];
};

export const METRO_LINES: Record<MetroLine, readonly Row[]> = { purple: PURPLE, green: GREEN, yellow: YELLOW };

/** Each station once, interchanges with both their lines. */
export const METRO_STATIONS: readonly MetroStation[] = (() => {
  const byName = new Map<string, MetroStation>();
  for (const line of Object.keys(METRO_LINES) as MetroLine[]) {
    for (const [name, fullName, lat, lng] of METRO_LINES[line]) {
      const seen = byName.get(name);
      if (seen) seen.lines.push(line);
      else byName.set(name, { name, fullName, lat, lng, lines: [line] });
    }
  }
  return [...byName.values()];
})();

/** The station as a place of the place list: "Majestic Metro Station". */
export function metroPlaceName(s: MetroStation): string {
  return `${s.name} Metro Station`;
}

/** "Majestic (Purple, Green)" */
export function stationLabel(s: MetroStation): string {
  return `${s.name} (${s.lines.map((l) => METRO_LINE_NAMES[l]).join(", ")})`;
}

/**
 * What a search's From or To says for "any station will do" (issue 36, item 4: the last mile
 * to a tech park): each ride is matched at the station that suits it best.
 */
export const ANY_METRO = "Any metro station";
/** The text is ANY_METRO, whatever its case and spacing ("any metro  station"). */
export const isAnyMetro = (text: string | null | undefined) =>
  (text ?? "").trim().replace(/\s+/g, " ").toLowerCase() === ANY_METRO.toLowerCase();
export const metroStationNamed = (name: string | null | undefined) => METRO_STATIONS.find((s) => s.name === name);

// Past this a station is no help for the last mile: the line is not shown at all.
export const NEAREST_METRO_MAX_KM = 3;

/** The station nearest a point, and how far it is (straight line), or null past 3 km. */
export function nearestMetro(
  at: { lat: number; lng: number },
  maxKm = NEAREST_METRO_MAX_KM,
): { station: MetroStation; km: number } | null {
  if (!Number.isFinite(at.lat) || !Number.isFinite(at.lng)) return null;
  // Why (ADR 0066): a search page asks this for every card, 83 stations each. straightLineKm's
  // arithmetic, with each station's cosine made once and the arcsine taken only for a station
  // whose haversine term is no larger than the best's (the distance grows with it), so the
  // distances and the station chosen are exactly straightLineKm's.
  const cosAt = Math.cos((at.lat * Math.PI) / 180);
  let best: { station: MetroStation; km: number } | null = null;
  let bestH = Number.POSITIVE_INFINITY;
  for (let i = 0; i < METRO_STATIONS.length; i++) {
    const station = METRO_STATIONS[i];
    const dLat = ((station.lat - at.lat) * Math.PI) / 180;
    const dLng = ((station.lng - at.lng) * Math.PI) / 180;
    const h = Math.sin(dLat / 2) ** 2 + cosAt * STATION_COS[i] * Math.sin(dLng / 2) ** 2;
    if (h > bestH) continue;
    const km = 2 * EARTH_KM * Math.asin(Math.sqrt(h));
    if (!best || km < best.km) {
      best = { station, km };
      bestH = h;
    }
  }
  return best && best.km <= maxKm ? best : null;
}

// straightLineKm's radius and each station's cosine of latitude, as it computes them.
const EARTH_KM = 6371;
const STATION_COS = METRO_STATIONS.map((s) => Math.cos((s.lat * Math.PI) / 180));

/** "600 m" under a kilometre (to 100 m; "under 100 m" closer), else "1.4 km". */
export function walkDistance(km: number): string {
  if (km < 0.1) return "under 100 m";
  if (km < 0.95) return `${Math.round(km * 10) * 100} m`;
  return `${km.toFixed(1)} km`;
}

/** "Nearest metro: Baiyappanahalli (Purple), 600 m", or null with no station within 3 km. */
export function nearestMetroText(at: { lat: number; lng: number } | null | undefined): string | null {
  const near = at ? nearestMetro(at) : null;
  return near ? `Nearest metro: ${stationLabel(near.station)}, ${walkDistance(near.km)}` : null;
}
