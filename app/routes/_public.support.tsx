import type { MetaFunction } from "@remix-run/cloudflare";
import { Link } from "@remix-run/react";
import { CONTACT_EMAIL } from "~/components/brand";
import { FaqList, type Faq } from "~/components/faq-list";
import { buttonClass, secondaryButtonClass } from "~/components/forms";
import { PageHeader } from "~/components/legal-page";

export const meta: MetaFunction = () => [
  { title: "Support | LoopRide" },
  {
    name: "description",
    content: "Answers about communities, rides, cancellations, cost splitting and payments on LoopRide.",
  },
];

const linkClass = "font-medium text-emerald-800 underline dark:text-emerald-300";

const CONTACT_HREF = `mailto:${CONTACT_EMAIL}?subject=${encodeURIComponent("LoopRide support request")}`;

const FAQS: Faq[] = [
  {
    question: "How do I join a community?",
    answer: (
      <p>
        Open <strong>Communities</strong>, find your apartment, workplace or interest group and ask to join. Community
        moderators approve join requests; you will get a notification as soon as yours is approved, and you can then see
        and offer rides in that community.
      </p>
    ),
  },
  {
    question: "Can I create my own community?",
    answer: (
      <p>
        Yes. Anyone can create a residential, workplace or interest community. As its creator you get moderation tools:
        you review and approve or reject join requests and look after the members, so only people you trust share rides
        in your community.
      </p>
    ),
  },
  {
    question: "Can I cancel a ride?",
    answer: (
      <p>
        Yes, rides can be cancelled up to 2 hours before departure from <strong>My Rides</strong>. After that the ride
        can no longer be cancelled in the app, so please message your driver or passengers straight away if your plans
        change, so nobody is left waiting.
      </p>
    ),
  },
  {
    question: "How are ride costs split?",
    answer: (
      <>
        <p>
          By default, costs are split equally among passengers: when the driver and everyone riding are members of the
          ride's community, the trip cost is divided equally between everyone in the car.
        </p>
        <p>
          If not everyone is in the same community, each passenger pays the driver's price per seat for the seats they
          booked. After the ride, the driver completes it and everyone sees the cost breakdown in rupees.
        </p>
      </>
    ),
  },
  {
    question: "How do I pay the driver?",
    answer: (
      <p>
        Payments are settled between members, by UPI or cash, as you agree with your driver. LoopRide never holds,
        collects or transfers money for rides; the cost breakdown simply shows each person's fair share.
      </p>
    ),
  },
  {
    question: "Is my information safe and private?",
    answer: (
      <p>
        You only ride with members of communities you chose to join, and messages are visible only to the people in the
        conversation. We never sell your data. If someone makes you feel unsafe, tell your community's moderators or
        write to{" "}
        <a href={CONTACT_HREF} className={linkClass}>
          {CONTACT_EMAIL}
        </a>
        ; in an emergency call 112. Read our{" "}
        <Link to="/privacy-policy" className={linkClass}>
          Privacy Policy
        </Link>{" "}
        for details.
      </p>
    ),
  },
];

const QUICK_HELP = [
  {
    title: "User Guide",
    body: "Learn the four steps from sign-up to your first shared ride.",
    href: "/how-it-works",
    icon: "📘",
  },
  {
    title: "FAQs",
    body: "Quick answers about communities, cancellations, cost splitting and payments.",
    href: "#faqs",
    icon: "❓",
  },
  {
    title: "Getting Started",
    body: "Create your free account, add your mobile number and join your first community.",
    href: "/signup",
    icon: "🚀",
  },
];

export default function Support() {
  return (
    <>
      <PageHeader title="Support" eyebrow="We're here to help">
        <p>Find answers to common questions, or get in touch with the LoopRide team.</p>
      </PageHeader>

      <section aria-labelledby="quick-help" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="quick-help" className="text-center text-3xl font-bold">
          Quick help
        </h2>
        <ul className="mt-8 grid gap-6 md:grid-cols-3">
          {QUICK_HELP.map((card) => {
            const content = (
              <>
                <p aria-hidden="true" className="text-3xl">
                  {card.icon}
                </p>
                <h3 className="mt-3 text-lg font-semibold text-emerald-800 group-hover:underline dark:text-emerald-300">
                  {card.title}
                </h3>
                <p className="mt-2 text-slate-700 dark:text-slate-300">{card.body}</p>
              </>
            );
            const className =
              "group block h-full rounded-xl border border-slate-200 p-6 hover:border-emerald-600 hover:shadow-md dark:border-slate-800 dark:hover:border-emerald-500";
            return (
              <li key={card.title}>
                {card.href.startsWith("#") ? (
                  <a href={card.href} className={className}>
                    {content}
                  </a>
                ) : (
                  <Link to={card.href} className={className}>
                    {content}
                  </Link>
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section id="faqs" aria-labelledby="faqs-title" className="mx-auto max-w-3xl scroll-mt-4 px-4 py-8">
        <h2 id="faqs-title" className="mb-6 text-center text-3xl font-bold">
          Frequently Asked Questions
        </h2>
        <FaqList items={FAQS} />
      </section>

      <section aria-labelledby="contact" className="mx-auto max-w-3xl px-4 py-8">
        <div className="rounded-xl bg-slate-50 p-8 text-center dark:bg-slate-900">
          <h2 id="contact" className="text-2xl font-bold">
            Still need help?
          </h2>
          <p className="mt-2 text-slate-700 dark:text-slate-300">
            Write to us at {CONTACT_EMAIL} and a member of the LoopRide team will get back to you.
          </p>
          <div className="mt-6 flex flex-wrap justify-center gap-3">
            <a href={CONTACT_HREF} className={buttonClass}>
              Contact Support
            </a>
            <Link to="/community-guidelines" className={secondaryButtonClass}>
              Community Guidelines
            </Link>
          </div>
        </div>
      </section>
    </>
  );
}
