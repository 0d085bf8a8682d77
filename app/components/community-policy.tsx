import type { SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { FieldErrors, FormErrors } from "./forms";
import { inputClass, panelClass, smallPrimaryClass } from "./styles";

// Issue 16, item 2: the community's rules for rides shared with it (pricing, women-only,
// approved pickup points), shown to its members, and the admins' one form to change them.

type Policy = { pricingMode: "free" | "equal" | "per_seat"; womenOnly: boolean; pickupPoints: string[] };

export const PRICING_LABEL: Record<Policy["pricingMode"], string> = {
  free: "Free ride: riders pay nothing",
  equal: "Equal split: when everyone on the ride is a member, all share the trip cost equally",
  per_seat: "Per seat: each rider pays for the seats they book",
};

export function CommunityPolicySummary({ policy }: { policy: Policy }) {
  return (
    <section aria-labelledby="community-policy" className={panelClass} data-testid="community-policy">
      <h2 id="community-policy" className="text-lg font-semibold">
        Rules for rides shared here
      </h2>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="font-medium text-slate-700 dark:text-slate-300">Pricing</dt>
          <dd data-testid="policy-pricing">{PRICING_LABEL[policy.pricingMode]}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700 dark:text-slate-300">Who can ride</dt>
          <dd data-testid="policy-women-only">
            {policy.womenOnly ? "Women only: every ride shared here is women-only" : "Anyone in the community"}
          </dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700 dark:text-slate-300">Approved pickup points</dt>
          <dd data-testid="policy-pickup-points">
            {policy.pickupPoints.length ? policy.pickupPoints.join(", ") : "None yet"}
          </dd>
        </div>
      </dl>
      <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
        A change applies to rides offered after it; rides already offered keep their price and rules.
      </p>
    </section>
  );
}

/**
 * The admins' form. Validated by the server (zod, conform's reply) and shown again with its
 * errors: no client validation library on this page (it would put it over the JS budget).
 */
export function CommunityPolicyForm({
  policy,
  lastResult,
}: {
  policy: Policy;
  lastResult: SubmissionResult<string[]> | null | undefined;
}) {
  const errors = lastResult?.error ?? {};
  const typed = lastResult?.initialValue as Record<string, string> | undefined;
  return (
    <section aria-labelledby="community-policy-form-title" className={`${panelClass} space-y-4`}>
      <h2 id="community-policy-form-title" className="text-lg font-semibold">
        Ride rules
      </h2>
      <Form method="post" className="space-y-4" key={JSON.stringify(policy)}>
        <input type="hidden" name="intent" value="set-policy" />
        <FormErrors errors={errors[""] ?? undefined} />
        <div>
          <label htmlFor="policy-pricing-mode" className="mb-1 block text-sm font-medium">
            Pricing of rides shared with the community
          </label>
          <select
            id="policy-pricing-mode"
            name="pricingMode"
            defaultValue={typed?.pricingMode ?? policy.pricingMode}
            className={inputClass}
          >
            <option value="free">Free</option>
            <option value="equal">Equal split</option>
            <option value="per_seat">Per seat</option>
          </select>
          <FieldErrors id="policy-pricing-mode-error" errors={errors.pricingMode ?? undefined} />
        </div>
        <label className="flex items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            name="womenOnly"
            defaultChecked={typed ? typed.womenOnly === "on" : policy.womenOnly}
            className="h-4 w-4 accent-emerald-700"
          />
          Rides shared with the community are women-only (only women drivers can share them)
        </label>
        <div>
          <label htmlFor="policy-pickup-points" className="mb-1 block text-sm font-medium">
            Approved pickup points (up to 10 places, one per line)
          </label>
          <textarea
            id="policy-pickup-points"
            name="pickupPoints"
            rows={4}
            maxLength={2000}
            defaultValue={typed?.pickupPoints ?? policy.pickupPoints.join("\n")}
            aria-invalid={errors.pickupPoints ? true : undefined}
            aria-describedby={errors.pickupPoints ? "policy-pickup-points-error" : undefined}
            className={inputClass}
            placeholder={"e.g. Koramangala\nHSR Layout"}
          />
          <FieldErrors id="policy-pickup-points-error" errors={errors.pickupPoints ?? undefined} />
        </div>
        <button type="submit" className={smallPrimaryClass}>
          Save ride rules
        </button>
      </Form>
    </section>
  );
}
