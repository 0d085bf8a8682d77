import { type AppLoadContext } from "@remix-run/cloudflare";
import { deleteSavedSearch, saveSearch, setSavedSearchPaused } from "../models/saved-searches.server";
import { resolvePlace } from "../models/places.server";
import { SAVED_SEARCH_INTENTS, savedSearchIntentSchema } from "../schemas/saved-searches";
import { safeRedirect } from "./auth.server";
import { orToast, parseIntent } from "./errors.server";
import { redirectWithToast, type Toast } from "./toast.server";

export type SavedSearchIntent = (typeof SAVED_SEARCH_INTENTS)[number];

/** Whether a form post is one of the saved-search intents (Discover Rides answers them). */
export const isSavedSearchIntent = (formData: FormData) => (SAVED_SEARCH_INTENTS as readonly unknown[]).includes(formData.get("intent"));

const DONE: Record<SavedSearchIntent, Toast> = {
  "save-search": { title: "Search saved", description: "We will tell you when a matching ride is published (at most once a day)." },
  "pause-search": { title: "Alerts paused for this search" },
  "resume-search": { title: "Alerts resumed for this search" },
  "delete-search": { title: "Saved search deleted" },
};

/**
 * The saved-search intents of Discover Rides (issue 14), as plain form posts answered with a
 * redirect and a toast. Bad input (an unknown place, a radius or window out of range, no
 * weekday) is an error toast naming what is wrong, and nothing is saved.
 */
export async function handleSavedSearchIntent(request: Request, context: Pick<AppLoadContext, "db" | "env">, userId: string, formData: FormData, fallback: string) {
  const { submission } = parseIntent(formData, savedSearchIntentSchema(resolvePlace));
  const to = safeRedirect(String(formData.get("redirectTo") ?? ""), fallback);
  if (submission.status !== "success") {
    const messages = [...new Set(Object.values(submission.error ?? {}).flatMap((m) => m ?? []))];
    return redirectWithToast(request, context.env, to, { title: "Could not save the search", description: messages.join(" "), type: "error" });
  }
  const input = submission.value;
  return orToast(request, context.env, { to, title: "Could not change the saved search" }, async () => {
    switch (input.intent) {
      case "save-search":
        await saveSearch(context, userId, { from: input.from, to: input.to, time: input.time, radiusKm: input.radius, windowMinutes: input.window, weekdays: input.weekdays });
        break;
      case "pause-search":
      case "resume-search":
        await setSavedSearchPaused(context, userId, input.searchId, input.intent === "pause-search");
        break;
      case "delete-search":
        await deleteSavedSearch(context, userId, input.searchId);
        break;
    }
    return redirectWithToast(request, context.env, to, DONE[input.intent]);
  });
}
