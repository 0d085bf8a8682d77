import { z } from "zod";
import { indianMobileSchema } from "./phone";

export const CAR_TYPES = ["petrol", "diesel", "hybrid", "electric"] as const;
export const CAR_TYPE_LABEL: Record<(typeof CAR_TYPES)[number], string> = {
  petrol: "Petrol",
  diesel: "Diesel",
  hybrid: "Hybrid",
  electric: "Electric",
};

export const phoneStepSchema = z.object({
  phone: indianMobileSchema("Please enter your mobile number"),
});

export const carStepSchema = z
  .object({
    hasCar: z.enum(["yes", "no"], {
      required_error: "Please select whether you have a car",
      invalid_type_error: "Please select whether you have a car",
    }),
    carType: z.enum(CAR_TYPES, { invalid_type_error: "Please select your car type" }).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.hasCar === "yes" && !v.carType)
      ctx.addIssue({ code: "custom", path: ["carType"], message: "Please select your car type" });
  })
  .transform((v) => ({ hasCar: v.hasCar, carType: v.hasCar === "yes" ? v.carType : undefined }));

export const referralStepSchema = z.object({
  referralCode: z
    .string()
    .max(20, "Referral codes are 8 characters")
    .optional()
    .transform((v) => (v ? v.trim().toUpperCase() : "")),
});

/** The wizard's buttons: Back, Next and Complete Setup. */
export const onboardingIntentSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("back") }),
  z.object({ intent: z.literal("next") }),
  z.object({ intent: z.literal("complete") }),
]);
