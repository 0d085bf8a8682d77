import { z } from "zod";
import { isCleanText, TEXT_INVALID } from "./text";

// Shared by the routes (server) and the forms (client validation with conform).
export const MESSAGE_MAX = 2000;
export const MESSAGE_TOO_LONG = "Message must be at most 2,000 characters";
export const MESSAGE_EMPTY = "Type a message to send";
/** Messages on one page of a chat; "Older messages" shows the next this many (ADR 0025). */
export const MESSAGES_PAGE = 30;

const id = z.string().regex(/^[a-z0-9]{1,64}$/, "Invalid id");

export const sendMessageSchema = z.object({
  intent: z.literal("send"),
  to: id,
  content: z
    .string({ required_error: MESSAGE_EMPTY })
    .trim()
    .min(1, MESSAGE_EMPTY)
    .max(MESSAGE_MAX, MESSAGE_TOO_LONG)
    .refine(isCleanText, TEXT_INVALID),
  clientId: z
    .string()
    .regex(/^[A-Za-z0-9-]{8,64}$/)
    .optional(),
  // The ride a first message asks about (a ride's Contact button); the server decides whether it may.
  rideId: id.optional(),
});

export const messageActionSchema = z.discriminatedUnion("intent", [
  sendMessageSchema,
  // What the live chat posts (a fetcher; answers with JSON).
  z.object({ intent: z.literal("mark-read"), c: id }),
  // Opening a chat from the list (a plain form; answers with a redirect to the chat).
  z.object({ intent: z.literal("open"), c: id }),
]);

export const notificationActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("mark-read"), id }),
  z.object({ intent: z.literal("mark-all-read") }),
]);

/** Ids accepted in ?c= and ?to= (anything else is ignored). */
export const isId = (v: string | null): v is string => v !== null && /^[a-z0-9]{1,64}$/.test(v);
