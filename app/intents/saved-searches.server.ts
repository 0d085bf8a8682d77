import { deleteSavedSearch, saveSearch, setSavedSearchPaused } from "~/models/saved-searches.server";
import { resolvePlace } from "~/models/places.server";
import { SAVED_SEARCH_INTENTS, savedSearchIntentSchema } from "~/schemas/saved-searches";
import { safeRedirect } from "~/utils/auth.server";
import type { Toast } from "~/utils/toast.server";
import { runIntent, type Ctx } from "./run.server";

export type SavedSearchIntent = (typeof SAVED_SEARCH_INTENTS)[number];

/** Whether a form post is one of the saved-search intents (Discover Rides answers them). */
export const isSavedSearchIntent = (formData: FormData) =>
  (SAVED_SEARCH_INTENTS as readonly unknown[]).includes(formData.get("intent"));

const DONE: Record<SavedSearchIntent, Toast> = {
  "save-search": {
    title: "Search saved",
    description: "We will tell you when a matching ride is published (at most once a day).",
  },
  "pause-search": { title: "Alerts paused for this search" },
  "resume-search": { title: "Alerts resumed for this search" },
  "delete-search": { title: "Saved search deleted" },
};

/**
 * The saved-search intents of Discover Rides (issue 14), as plain form posts answered with a
 * redirect and a toast. Bad input (an unknown place, a radius or window out of range, no
 * weekday) is an error toast naming what is wrong, and nothing is saved.
 */
export function handleSavedSearchIntent(
  request: Request,
  context: Ctx,
  userId: string,
  formData: FormData,
  fallback: string,
) {
  const to = safeRedirect(String(formData.get("redirectTo") ?? ""), fallback);
  return runIntent(request, context, formData, {
    schema: savedSearchIntentSchema(resolvePlace),
    invalid: (_, messages) => ({ to, toast: { title: "Could not save the search", description: messages.join(" ") } }),
    page: () => ({ kind: "toast", to, title: "Could not change the saved search" }),
    handle: async (input) => {
      switch (input.intent) {
        case "save-search": {
          const { from, to: dest, time, radius, window, weekdays, back, backTime } = input;
          await saveSearch(context, userId, {
            from,
            to: dest,
            time,
            radiusKm: radius,
            windowMinutes: window,
            weekdays,
            returnTime: back && backTime ? backTime : null,
          });
          break;
        }
        case "pause-search":
        case "resume-search":
          await setSavedSearchPaused(context, userId, input.searchId, input.intent === "pause-search");
          break;
        case "delete-search":
          await deleteSavedSearch(context, userId, input.searchId);
          break;
      }
      return { to, toast: DONE[input.intent] };
    },
  });
}
