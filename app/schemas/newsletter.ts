import { z } from "zod";

export const newsletterSchema = z.object({
  email: z
    .string({ required_error: "Please enter your e-mail address" })
    .trim()
    .max(254, "That e-mail address is too long")
    .email("Please enter a valid e-mail address"),
});
