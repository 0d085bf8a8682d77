import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { secondaryButtonClass } from "~/components/forms";
import { FeatureGrid } from "~/components/feature-grid";
import { HowItWorksSteps } from "~/components/how-it-works-steps";
import { PageHeader } from "~/components/legal-page";
import { formatRupees } from "~/domain/money";

export const meta: MetaFunction = () => [
  { title: "How It Works | LoopRide" },
  {
    name: "description",
    content: "Sign up, join your communities, create or join rides, and share the cost of your Bengaluru commute.",
  },
];

const VALUES = [
  {
    title: "Save money",
    icon: "💰",
    body: `Share fuel and toll costs with people going your way. Regular carpoolers save up to ${formatRupees(1200000, { decimals: 0 })} a year, and the split is worked out for you in rupees.`,
  },
  {
    title: "Cut CO2 and traffic",
    icon: "🌱",
    body: "Every shared seat is one car fewer on Outer Ring Road or Hosur Road. Carpooling can cut your commute's CO2 by up to 85%.",
  },
  {
    title: "Meet your community",
    icon: "🤝",
    body: "Ride with neighbours, colleagues and people who share your interests: members of communities you chose to join, approved by their moderators.",
  },
];

export default function HowItWorks() {
  return (
    <>
      <PageHeader title="How It Works" eyebrow="Carpooling made simple">
        <p>
          LoopRide connects commuters inside their residential, workplace and interest communities. Four steps take you
          from sign-up to your first shared ride.
        </p>
      </PageHeader>

      <section aria-labelledby="steps" className="bg-slate-50 py-16 dark:bg-slate-900">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="steps" className="text-center text-3xl font-bold">
            Four simple steps
          </h2>
          <HowItWorksSteps />
        </div>
      </section>

      <FeatureGrid id="values" title="Why share your ride" items={VALUES} />

      <section aria-labelledby="drivers-riders" className="mx-auto max-w-4xl px-4 pb-16">
        <h2 id="drivers-riders" className="sr-only">
          For drivers and passengers
        </h2>
        <div className="grid gap-6 md:grid-cols-2">
          <div className="rounded-xl bg-slate-50 p-6 dark:bg-slate-900">
            <h3 className="text-lg font-semibold">If you drive</h3>
            <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700 dark:text-slate-300">
              <li>Publish a ride with your route, departure time, free seats and trip cost.</li>
              <li>Accept or reject each seat request; seats can never be double-booked.</li>
              <li>After the ride, complete it to see a fair cost breakdown for everyone.</li>
            </ul>
          </div>
          <div className="rounded-xl bg-slate-50 p-6 dark:bg-slate-900">
            <h3 className="text-lg font-semibold">If you ride</h3>
            <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700 dark:text-slate-300">
              <li>Find rides from your communities going your way and request a seat.</li>
              <li>Message the driver to agree on the pickup point.</li>
              <li>Pay your share directly to the driver: LoopRide never holds your money.</li>
            </ul>
          </div>
        </div>
      </section>

      <section aria-labelledby="cta" className="mx-auto max-w-4xl px-4 pb-8">
        <div className="rounded-xl bg-emerald-800 p-8 text-center text-white">
          <h2 id="cta" className="text-2xl font-bold">
            Ready to share your commute?
          </h2>
          <p className="mt-2 text-emerald-50">
            Joining LoopRide is free. Find your community and take your first shared ride this week.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <Link
              to="/signup"
              className="inline-flex items-center rounded-md bg-white px-5 py-2 font-semibold text-emerald-900 hover:bg-emerald-50"
            >
              Sign up for free
            </Link>
            <Link
              to="/pricing"
              className={`${secondaryButtonClass} border-white text-white hover:bg-emerald-900 dark:border-white`}
            >
              See pricing
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
