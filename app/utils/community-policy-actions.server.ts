import type { AppLoadContext } from "@remix-run/cloudflare";
import type { Submission } from "@conform-to/react";
import { setCommunityPolicy } from "../models/community-policy.server";
import type { PolicyInput } from "../models/community-policy.server";
import { orFormError } from "./errors.server";
import { redirectWithToast } from "./toast.server";

type Ctx = Pick<AppLoadContext, "db" | "env" | "ctx">;

/** Issue 16, item 2: the admins' community rules form (field errors stay on the form; success redirects with a toast). */
export async function setPolicyIntent(
  request: Request,
  context: Ctx,
  userId: string | null,
  communityId: string,
  submission: Submission<unknown>,
  value: PolicyInput,
  to: string,
) {
  return orFormError(
    submission,
    async () => {
      await setCommunityPolicy(context, userId, communityId, value);
      return redirectWithToast(request, context.env, to, { title: "Community Rules Updated", description: "New rides follow them; rides already offered keep theirs." });
    },
    { unexpected: "Failed to save the community rules. Please try again." },
  );
}
