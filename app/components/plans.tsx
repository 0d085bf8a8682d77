import { Link } from "@remix-run/react";
import { formatRupees } from "~/domain/money";
import { buttonClass } from "./styles";

const PLANS = [
  {
    name: "Free",
    price: formatRupees(0, { decimals: 0 }),
    period: "forever",
    note: "Supported by ads",
    features: ["Join unlimited communities", "Offer and book rides", "In-app messaging", "Fair cost split"],
    cta: "Get started",
  },
  {
    name: "Pro",
    price: formatRupees(4900, { decimals: 0 }),
    period: "per month",
    note: "For daily commuters",
    features: [
      "Ad-free experience",
      "Featured partner rewards",
      "Priority support",
      "Advanced ride preferences",
      "Exclusive community features",
    ],
    cta: "Go Pro",
  },
];

export function Plans() {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      {PLANS.map((plan) => (
        <section
          key={plan.name}
          aria-labelledby={`plan-${plan.name}`}
          className={`rounded-xl border p-6 ${plan.name === "Pro" ? "border-emerald-600 shadow-lg" : "border-slate-200 dark:border-slate-800"}`}
        >
          <h3 id={`plan-${plan.name}`} className="text-xl font-bold">
            {plan.name}
          </h3>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{plan.note}</p>
          <p className="mt-4">
            <span className="text-4xl font-extrabold">{plan.price}</span>{" "}
            <span className="text-slate-600 dark:text-slate-400">{plan.period}</span>
          </p>
          <ul className="mt-4 space-y-2 text-sm">
            {plan.features.map((f) => (
              <li key={f} className="flex gap-2">
                <span aria-hidden="true" className="text-emerald-700">
                  ✓
                </span>
                {f}
              </li>
            ))}
          </ul>
          <Link to="/signup" className={`mt-6 w-full ${buttonClass}`}>
            {plan.cta}
          </Link>
        </section>
      ))}
    </div>
  );
}
