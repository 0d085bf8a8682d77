import { basicInfoSchema, contactSchema, preferencesSchema, vehicleSchema } from "./profile";

/**
 * Complete your profile: each step's form, in order. A module of its own, so the pages that
 * use the other profile schemas do not carry it (their initial JavaScript is at its budget).
 */
export const PROFILE_STEP_SCHEMAS = [basicInfoSchema, contactSchema, vehicleSchema, preferencesSchema] as const;
