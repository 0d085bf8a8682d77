import { z } from "zod";

// "Delete my account" (issue 16): re-enter the password (if the account has one) and type DELETE.
export const DELETE_CONFIRM_MESSAGE = "Type DELETE to confirm";

export const deleteAccountSchema = z.object({
  password: z.string().max(200).optional(),
  confirm: z
    .string({ required_error: DELETE_CONFIRM_MESSAGE })
    .trim()
    .refine((v) => v === "DELETE", DELETE_CONFIRM_MESSAGE),
});
