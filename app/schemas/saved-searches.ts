import { z } from "zod";
import { ANY_METRO } from "~/domain/metro-stations";
import { isValidTime } from "~/domain/time";
import { RETURN_BEFORE_DEPARTURE, weekdaysField } from "./commutes";
import { nearSearchSchema } from "./ride-search";
import { idSchema, type PlaceResolver } from "./rides";

// Saved searches (issue 14, item 4): the "Save this search" form under Discover's distance
// results and the pause / resume / delete buttons of the saved list, one named intent each.
// Places, time, radius and window are the distance search's own fields (and messages).
const redirectTo = z.string().optional();

export const ANY_METRO_NOT_SAVED = `A search from or to "${ANY_METRO}" cannot be saved: please choose a place`;
export const SAME_PLACES = "Pickup and drop places cannot be the same";

export function savedSearchIntentSchema(resolve?: PlaceResolver) {
  const near = nearSearchSchema(resolve).shape;
  return z
    .discriminatedUnion("intent", [
      z.object({
        intent: z.literal("save-search"),
        from: near.from,
        to: near.to,
        time: near.time,
        radius: near.radius,
        window: near.window,
        weekdays: weekdaysField,
        // "And back" (ADR 0055): the weekday search's time back, kept with the search.
        back: near.back,
        backTime: near.backTime,
        redirectTo,
      }),
      z.object({ intent: z.literal("pause-search"), searchId: idSchema, redirectTo }),
      z.object({ intent: z.literal("resume-search"), searchId: idSchema, redirectTo }),
      z.object({ intent: z.literal("delete-search"), searchId: idSchema, redirectTo }),
    ])
    .superRefine((v, ctx) => {
      // Alerts match a saved search's two points (ADR 0062): "any station" has none.
      if (v.intent === "save-search")
        for (const end of ["from", "to"] as const)
          if (v[end] === ANY_METRO) ctx.addIssue({ code: "custom", path: [end], message: ANY_METRO_NOT_SAVED });
      if (v.intent === "save-search" && v.back && v.backTime && isValidTime(v.time) && v.backTime <= v.time)
        ctx.addIssue({ code: "custom", path: ["backTime"], message: RETURN_BEFORE_DEPARTURE });
    });
}

export type SaveSearchInput = Extract<z.output<ReturnType<typeof savedSearchIntentSchema>>, { intent: "save-search" }>;
export const SAVED_SEARCH_INTENTS = ["save-search", "pause-search", "resume-search", "delete-search"] as const;
