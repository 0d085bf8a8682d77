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
/** Issue 37: reports LoopRide's operators read whatever the communities (harassment or threats, unsafe driving). */
export const URGENT_REASONS: readonly ReportReason[] = ["harassment", "unsafe_driving"];
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

/** Issue 37: an operator's action on one report of the operators' queue. */
export const operatorActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("warn"), reportId: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("suspend"), reportId: z.string().min(1).max(64) }),
  z.object({ intent: z.literal("close"), reportId: z.string().min(1).max(64) }),
  // ADR 0058: lift a platform-wide suspension.
  z.object({ intent: z.literal("lift"), userId: z.string().min(1).max(64) }),
]);
