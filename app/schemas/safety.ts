import { z } from "zod";
import { isCleanText, TEXT_INVALID } from "./text";

// Report and block (issue 16). Shared by the route (server) and the form (conform).
export const REPORT_REASONS = [
  { value: "harassment", label: "Harassment or threats" },
  { value: "unsafe_driving", label: "Unsafe driving" },
  { value: "no_show", label: "Repeated no-shows or late cancellations" },
  { value: "inappropriate", label: "Inappropriate messages or behaviour" },
  { value: "fake_profile", label: "Fake profile or impersonation" },
  { value: "other", label: "Something else" },
] as const;
export type ReportReason = (typeof REPORT_REASONS)[number]["value"];
export const REPORT_CONTEXTS = ["profile", "ride", "chat"] as const;
export const REPORT_DETAILS_MAX = 1000;
export const REPORT_REASON_REQUIRED = "Please choose a reason";
export const REPORT_DETAILS_TOO_LONG = "Details must be at most 1,000 characters";

const reason = z.enum(REPORT_REASONS.map((r) => r.value) as [ReportReason, ...ReportReason[]], {
  errorMap: () => ({ message: REPORT_REASON_REQUIRED }),
});

export const reportSchema = z.object({
  intent: z.literal("report"),
  reason,
  details: z
    .string()
    .trim()
    .max(REPORT_DETAILS_MAX, REPORT_DETAILS_TOO_LONG)
    .refine(isCleanText, TEXT_INVALID)
    .optional()
    .transform((v) => v || null),
  context: z.enum(REPORT_CONTEXTS).catch("profile"),
});

export const safetyActionSchema = z.discriminatedUnion("intent", [
  reportSchema,
  z.object({ intent: z.literal("block"), redirectTo: z.string().optional() }),
  z.object({ intent: z.literal("unblock"), redirectTo: z.string().optional() }),
]);
