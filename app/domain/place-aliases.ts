// The names people use for places of the list (issue 36, item 5): a common name, a short form
// or a spelling, mapped to the list's own name. Kept as data so a new alias is one line and
// the test (test/integration/place-aliases.test.ts) checks every target is a real place.
// Keys are compared folded (lower case, punctuation as spaces), as place names are.

/** Alias -> the place's name on the list. */
export const PLACE_ALIASES: Readonly<Record<string, string>> = {
  // "Electronic City" is what everybody says; the tech park is Phase 1.
  "Electronic City": "Electronic City Phase 1",
  "E City": "Electronic City Phase 1",
  Ecity: "Electronic City Phase 1",
  "Electronic City Phase I": "Electronic City Phase 1",
  ITPL: "Whitefield ITPL",
  ITPB: "Whitefield ITPL",
  "International Tech Park": "Whitefield ITPL",
  // The list has no junction of its own: Central Silk Board is at BTM Layout's east edge.
  "Silk Board": "BTM Layout",
  "Central Silk Board": "BTM Layout",
  "Silk Board Junction": "BTM Layout",
  Manyata: "Manyata Tech Park",
  "Manyata Embassy Business Park": "Manyata Tech Park",
  "Embassy Manyata": "Manyata Tech Park",
  Ecospace: "RMZ Ecospace",
  EGL: "Embassy Tech Village",
  "Embassy Golf Links": "Embassy Tech Village",
  Bagmane: "Bagmane Tech Park",
  KIA: "Kempegowda International Airport",
  "Bangalore Airport": "Kempegowda International Airport",
  "Bengaluru Airport": "Kempegowda International Airport",
  Majestic: "Majestic Bus Station",
  "Kempegowda Bus Station": "Majestic Bus Station",
  // Outer Ring Road stretches, named by the locality the stretch runs through.
  "ORR Bellandur": "Bellandur",
  "Outer Ring Road Bellandur": "Bellandur",
  "ORR Marathahalli": "Marathahalli",
  "Outer Ring Road Marathahalli": "Marathahalli",
  "ORR Hebbal": "Hebbal",
  "Outer Ring Road Hebbal": "Hebbal",
  "ORR Agara": "Agara",
  "Outer Ring Road Agara": "Agara",
  "ORR Kadubeesanahalli": "Prestige Tech Park",
  "ORR Ecospace": "RMZ Ecospace",
  // Common spellings.
  Belandur: "Bellandur",
  Bellanduru: "Bellandur",
  Marthahalli: "Marathahalli",
  Marathalli: "Marathahalli",
  Marathahali: "Marathahalli",
  Kormangala: "Koramangala",
  Koramangla: "Koramangala",
  Kormangla: "Koramangala",
  Indiranagara: "Indiranagar",
  "Indira Nagar": "Indiranagar",
  HSR: "HSR Layout",
  BTM: "BTM Layout",
  "J P Nagar": "JP Nagar",
  "Jaya Nagar": "Jayanagar",
  Malleswaram: "Malleshwaram",
  Yelahnka: "Yelahanka",
  "White Field": "Whitefield",
};
