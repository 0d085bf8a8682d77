import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { FaqList, type Faq } from "~/components/faq-list";
import { PageHeader } from "~/components/legal-page";
import { Plans } from "~/components/plans";
import { formatRupees } from "~/domain/money";
import { CREDITS_TODAY_TEXT, NEW_USER_BONUS, REFERRALS_CREDITED_PER_DAY, REFERRER_BONUS } from "~/domain/referral";

export const meta: MetaFunction = () => [
  { title: "Pricing | LoopRide" },
  { name: "description", content: "LoopRide is free forever, supported by ads. Pro is ₹49 per month." },
];

const PRO_PRICE = formatRupees(4900, { decimals: 0 });
const FREE_PRICE = formatRupees(0, { decimals: 0 });

const FAQS: Faq[] = [
  {
    question: "Is the Free plan really free?",
    answer: (
      <p>
        Yes. The Free plan costs {FREE_PRICE}, forever, and is supported by ads. You can join communities, offer and
        book rides, message other members and see the fair cost split without paying anything to LoopRide.
      </p>
    ),
  },
  {
    question: "What do I get with Pro?",
    answer: (
      <p>
        Pro costs {PRO_PRICE} per month. It removes ads and adds featured partner rewards, priority support, advanced
        ride preferences and exclusive community features.
      </p>
    ),
  },
  {
    question: "Does my plan change what I pay for rides?",
    answer: (
      <p>
        No. The cost of each trip is set by its driver and shared between the people in the car, whichever plan you are
        on. Payments are settled directly between members: LoopRide never holds your money and takes no cut of the fare.
      </p>
    ),
  },
  {
    question: "How do referral credits work?",
    answer: (
      <>
        <p>
          {`Share your referral code with a friend. They can enter it when they sign up or while setting up their profile, and get ${NEW_USER_BONUS} credits as a welcome bonus at once. You get ${REFERRER_BONUS} credits once they have confirmed their e-mail address and finished setting up their profile; until then your Profile page lists the referral as pending and says which step it waits for. A second account of your own (the same phone number or the same connection as yours) earns nothing, and at most ${REFERRALS_CREDITED_PER_DAY} referrals are credited to you a day.`}
        </p>
        <p className="mt-2">{CREDITS_TODAY_TEXT}</p>
      </>
    ),
  },
];

export default function Pricing() {
  return (
    <>
      <PageHeader title="Pricing" eyebrow="Simple, fair plans">
        <p>Start free and stay free, or go Pro for an ad-free ride. All prices are in Indian rupees.</p>
      </PageHeader>

      <section aria-labelledby="plans" className="mx-auto max-w-4xl px-4 py-12">
        <h2 id="plans" className="sr-only">
          Plans
        </h2>
        <Plans />
      </section>

      <section id="faqs" aria-labelledby="faqs-title" className="mx-auto max-w-3xl px-4 py-8">
        <h2 id="faqs-title" className="mb-6 text-center text-3xl font-bold">
          Frequently Asked Questions
        </h2>
        <FaqList items={FAQS} />
        <p className="mt-6 text-center text-slate-700 dark:text-slate-300">
          More questions?{" "}
          <Link to="/support" className="font-medium text-emerald-800 underline dark:text-emerald-300">
            Visit Support
          </Link>
          .
        </p>
      </section>
    </>
  );
}
