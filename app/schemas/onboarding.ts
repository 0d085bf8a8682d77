import { z } from "zod";
import { indianMobileSchema } from "./phone";
import { optionalPlaceField, type PlaceResolver } from "./rides";

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

const carFields = {
  hasCar: z.enum(["yes", "no"], {
    required_error: "Please select whether you have a car",
    invalid_type_error: "Please select whether you have a car",
  }),
  carType: z.enum(CAR_TYPES, { invalid_type_error: "Please select your car type" }).optional(),
};

function carTypeWhenCar(v: { hasCar: "yes" | "no"; carType?: string }, ctx: z.RefinementCtx) {
  if (v.hasCar === "yes" && !v.carType)
    ctx.addIssue({ code: "custom", path: ["carType"], message: "Please select your car type" });
}

export const carStepSchema = z
  .object(carFields)
  .superRefine(carTypeWhenCar)
  .transform((v) => ({ hasCar: v.hasCar, carType: v.hasCar === "yes" ? v.carType : undefined }));

export const HOME_LOCALITY_LABEL = "Home locality (optional)";

/**
 * Where the member lives (issue 38): optional, so nobody is stopped by it, but when given it
 * must be a place of the list (an alias such as "Kormangala" becomes "Koramangala"), as the
 * rider's commute search and the communities near home start from it. Empty is null.
 */
export const homeLocalityField = (resolve?: PlaceResolver) =>
  optionalPlaceField("Please choose a locality from the list", resolve);

/** Step 2: the car, and where the commute starts. */
export const carAndHomeStepSchema = (resolve?: PlaceResolver) =>
  z.object({ ...carFields, homeLocality: homeLocalityField(resolve) }).superRefine(carTypeWhenCar);

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
