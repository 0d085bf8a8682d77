import { z } from "zod";
import { normaliseRegistration } from "../domain/day-of-ride";
import { indianMobileSchema } from "./phone";
import { isCleanLine, isCleanText, LINE_INVALID, TEXT_INVALID } from "./text";

// Every field here is one line except the bio (multi-line: `lines`).
const text = (max: number, lines = false) =>
  z
    .string()
    .trim()
    .max(max, `Must be at most ${max} characters`)
    .refine(lines ? isCleanText : isCleanLine, lines ? TEXT_INVALID : LINE_INVALID);
const required = (message: string, max = 100) =>
  z
    .string({ required_error: message })
    .trim()
    .min(1, message)
    .max(max, `Must be at most ${max} characters`)
    .refine(isCleanLine, LINE_INVALID);
const optional = (max: number, lines = false) =>
  text(max, lines)
    .optional()
    .transform((v) => v || null);

export const basicInfoSchema = z.object({
  fullName: required("Full name is required"),
  residentialArea: required("Residential area is required"),
  workplace: required("Workplace is required"),
  bio: optional(500, true),
});

export const REGISTRATION_INVALID =
  "Please enter the registration number as on the plate, like KA 01 AB 1234 or 22 BH 1234 AA";

export const contactSchema = z.object({
  phoneNumber: indianMobileSchema("Phone number is required"),
  emergencyContact: required("Emergency contact is required", 120),
});

export const vehicleSchema = z.object({
  make: optional(40),
  model: optional(40),
  year: z
    .string()
    .trim()
    .optional()
    .refine((v) => !v || /^(19[89]\d|20\d\d)$/.test(v), "Please enter a valid year")
    .transform((v) => v || null),
  color: optional(30),
  // Shown to the riders on the day (issue 37), so it must be one an Indian plate can carry.
  licensePlate: z
    .string()
    .trim()
    .max(20, REGISTRATION_INVALID)
    .optional()
    .transform((v, ctx) => {
      if (!v) return null;
      const plate = normaliseRegistration(v);
      if (!plate) ctx.addIssue({ code: z.ZodIssueCode.custom, message: REGISTRATION_INVALID });
      return plate ?? z.NEVER;
    }),
  insuranceInfo: optional(120),
});

export const preferencesSchema = z.object({
  smokingAllowed: z.literal("on").optional().transform(Boolean),
  petsAllowed: z.literal("on").optional().transform(Boolean),
  musicPreference: z.enum(["quiet", "low", "moderate", "high"]).default("moderate"),
  conversationPreference: z.enum(["quiet", "casual", "talkative"]).default("casual"),
  maxDetourMinutes: z.coerce
    .number({ invalid_type_error: "Maximum detour must be a number of minutes" })
    .int("Maximum detour must be a whole number of minutes")
    .min(0, "Maximum detour must be between 0 and 60 minutes")
    .max(60, "Maximum detour must be between 0 and 60 minutes")
    .default(15),
  genderPreference: z.enum(["any", "female", "male"]).default("any"),
  // Self-declared and private (issue 16): only women-only rides' rule reads it. "unsaid" clears it.
  gender: z
    .enum(["female", "male", "other", "unsaid"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "unsaid" ? null : v)),
});

export const profileEditSchema = z.object({
  fullName: required("Full name is required"),
  residentialArea: optional(100),
  workplace: optional(100),
  bio: optional(500, true),
  upiId: z
    .string()
    .trim()
    .max(60)
    .optional()
    .refine((v) => !v || /^[a-zA-Z0-9._-]{2,}@[a-zA-Z]{2,}$/.test(v), "Please enter a valid UPI ID, like name@okbank")
    .transform((v) => v || null),
  // Issue 37: where "Alert my emergency contact" sends the trip link (optional).
  emergencyContactEmail: z
    .string()
    .trim()
    .max(254, "Must be at most 254 characters")
    .optional()
    .refine((v) => !v || /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v), "Please enter a valid e-mail address")
    .transform((v) => v?.toLowerCase() || null),
  // Issue 37: the car the riders see on the day, and the private gender, editable at any time.
  make: vehicleSchema.shape.make,
  model: vehicleSchema.shape.model,
  color: vehicleSchema.shape.color,
  licensePlate: vehicleSchema.shape.licensePlate,
  gender: preferencesSchema.shape.gender,
});

/** Issue 37: "Your gender" on its own (Settings). */
export const genderSchema = z.object({ intent: z.literal("gender"), gender: preferencesSchema.shape.gender });

export const SETTINGS = [
  {
    group: "Notifications",
    key: "emailNotifications",
    label: "Email notifications",
    description: "Ride requests and updates by e-mail.",
  },
  {
    group: "Notifications",
    key: "pushNotifications",
    label: "Push notifications",
    description: "Live alerts in open tabs, and browser notifications on devices you turn them on for (below).",
  },
  {
    group: "Notifications",
    key: "rideReminders",
    label: "Ride reminders",
    description: "A reminder before each ride you are part of.",
  },
  {
    group: "Privacy",
    key: "showProfile",
    label: "Show profile",
    description: "Let community members see your area, workplace and bio.",
  },
  {
    group: "Privacy",
    key: "rideInquiries",
    label: "Ride inquiries",
    description: "Let riders you share no community with message you about a ride of yours they can book.",
  },
  {
    group: "Privacy",
    key: "showPhone",
    label: "Show my mobile number to people on my rides",
    description:
      "From 6 PM the evening before until the ride ends, your driver or accepted riders can call you. Off: chat only.",
  },
  { group: "Appearance", key: "darkMode", label: "Dark mode", description: "Use a dark theme on every page." },
] as const;

export type SettingKey = (typeof SETTINGS)[number]["key"];

export const settingToggleSchema = z.object({
  setting: z.enum(SETTINGS.map((s) => s.key) as [SettingKey, ...SettingKey[]]),
  value: z.enum(["on", "off"]),
});

/**
 * The pages whose "confirm your e-mail" banner posts "send again" here and are returned to;
 * a closed list, so the field can never redirect anywhere else.
 */
export const RESEND_BACK = ["/dashboard", "/dashboard/settings"] as const;

/** The profile page's other forms (the profile form itself sends no intent). */
export const profileIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("upload-photo") }),
  z.object({ intent: z.literal("remove-photo") }),
  z.object({ intent: z.literal("referral-code") }),
  z.object({ intent: z.literal("resend-verification"), back: z.enum(RESEND_BACK).optional() }),
]);
