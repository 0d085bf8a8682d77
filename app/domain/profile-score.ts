// Profile completeness: weights and thresholds from the product specification.
export type ScoredProfile = {
  fullName: string | null;
  residentialArea: string | null;
  workplace: string | null;
  phoneNumber: string | null;
  emergencyContact: string | null;
  vehicleInfo: Record<string, unknown> | null;
};

const PARTS: { key: keyof ScoredProfile; weight: number; hint: string }[] = [
  { key: "fullName", weight: 20, hint: "Add your full name" },
  { key: "residentialArea", weight: 20, hint: "Add your residential area" },
  { key: "workplace", weight: 20, hint: "Add your workplace" },
  { key: "phoneNumber", weight: 15, hint: "Add your phone number" },
  { key: "emergencyContact", weight: 15, hint: "Add emergency contact" },
  { key: "vehicleInfo", weight: 10, hint: "Add vehicle information" },
];

export type ProfileStatus = "complete" | "basic" | "incomplete";

function present(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value.trim().length > 0;
  if (typeof value === "object") return Object.keys(value as object).length > 0;
  return true;
}

export function profileProgress(profile: ScoredProfile | null): {
  score: number;
  status: ProfileStatus;
  hints: string[];
} {
  let score = 0;
  const hints: string[] = [];
  for (const part of PARTS) {
    if (profile && present(profile[part.key])) score += part.weight;
    else hints.push(part.hint);
  }
  const status: ProfileStatus = score >= 100 ? "complete" : score >= 60 ? "basic" : "incomplete";
  return { score, status, hints: hints.slice(0, 3) };
}

export const STATUS_LABEL: Record<string, string> = { complete: "Complete", basic: "Basic", incomplete: "Incomplete" };
