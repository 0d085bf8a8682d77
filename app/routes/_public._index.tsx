import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { Form, Link, useActionData, useNavigation } from "@remix-run/react";
import { handleNewsletter } from "~/intents/public-forms.server";
import { FeatureGrid } from "~/components/feature-grid";
import { HowItWorksSteps } from "~/components/how-it-works-steps";
import { NO_SCRIPTS } from "~/components/page-scripts";
import { Field, buttonClass } from "~/components/forms";
import { HoneypotField } from "~/components/honeypot";
import { Plans } from "~/components/plans";
import { formatRupees } from "~/domain/money";
import { newsletterSchema } from "~/schemas/newsletter";
import { getUser } from "~/utils/auth.server";
import { guardPublicForm } from "~/utils/public-form.server";

// Every action here is a link or the newsletter's real form post: the visitor's first page
// ships no JavaScript (ADR 0061, "A landing page without JavaScript").
export const handle = NO_SCRIPTS;

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (await getUser(request, context)) throw redirect("/dashboard");
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const { isBot } = await guardPublicForm(request, context, formData, "newsletter");
  return handleNewsletter(request, context, formData, isBot);
}

const FEATURES = [
  {
    title: "Community based",
    body: "Ride with people from your apartment, your office or your interest group: members approved by their own moderators.",
    icon: "🏘️",
  },
  {
    title: "Workplace integration",
    body: "Join your company's community and share the commute to Manyata, Electronic City or Whitefield with colleagues.",
    icon: "🏢",
  },
  {
    title: "Safe and secure",
    body: "Verified members, ratings after every ride and private messaging. Your phone number stays with your community.",
    icon: "🛡️",
  },
];

export default function Landing() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: "newsletter-form",
    lastResult,
    shouldValidate: "onBlur",
    shouldRevalidate: "onInput",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newsletterSchema }),
  });
  return (
    <>
      <section className="bg-gradient-to-b from-emerald-50 to-white dark:from-emerald-950 dark:to-slate-950">
        <div className="mx-auto max-w-6xl px-4 py-20 text-center">
          <p className="font-semibold text-emerald-800 dark:text-emerald-300">Sustainable carpooling for Bengaluru</p>
          <h1 className="mt-3 text-4xl font-extrabold tracking-tight md:text-6xl">Share the ride. Share the cost.</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-slate-700 dark:text-slate-300">
            LoopRide connects commuters inside their residential, workplace and interest communities. Cut your CO2 by up
            to 85% and save up to {formatRupees(1200000, { decimals: 0 })} a year on your daily commute.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <Link to="/signup" className={buttonClass}>
              Get started for free
            </Link>
            <Link
              to="/how-it-works"
              className="inline-flex items-center rounded-md border border-slate-400 px-4 py-2 font-medium hover:bg-white dark:border-slate-600 dark:hover:bg-slate-900"
            >
              How It Works
            </Link>
          </div>
          <dl className="mx-auto mt-12 grid max-w-3xl grid-cols-1 gap-4 sm:grid-cols-3">
            <div className="rounded-lg bg-white p-4 shadow-sm dark:bg-slate-900">
              <dt className="text-sm text-slate-600 dark:text-slate-400">CO2 reduction</dt>
              <dd className="text-2xl font-bold">85%</dd>
            </div>
            <div className="rounded-lg bg-white p-4 shadow-sm dark:bg-slate-900">
              <dt className="text-sm text-slate-600 dark:text-slate-400">Annual savings</dt>
              <dd className="text-2xl font-bold">{formatRupees(1200000, { decimals: 0 })}</dd>
            </div>
            <div className="rounded-lg bg-white p-4 shadow-sm dark:bg-slate-900">
              <dt className="text-sm text-slate-600 dark:text-slate-400">First city</dt>
              <dd className="text-2xl font-bold">Bengaluru</dd>
            </div>
          </dl>
        </div>
      </section>

      <FeatureGrid id="features" title="Why LoopRide" items={FEATURES} />

      <section aria-labelledby="how" className="bg-slate-50 py-16 dark:bg-slate-900">
        <div className="mx-auto max-w-6xl px-4">
          <h2 id="how" className="text-center text-3xl font-bold">
            How it works
          </h2>
          <HowItWorksSteps />
        </div>
      </section>

      <section aria-labelledby="plans" className="mx-auto max-w-4xl px-4 py-16">
        <h2 id="plans" className="mb-8 text-center text-3xl font-bold">
          Plans
        </h2>
        <Plans />
      </section>

      <section id="newsletter" aria-labelledby="newsletter-title" className="mx-auto max-w-2xl px-4 pb-8">
        <div className="rounded-xl bg-emerald-800 p-8 text-white">
          <h2 id="newsletter-title" className="text-2xl font-bold">
            Stay updated
          </h2>
          <p className="mt-2 text-emerald-50">
            New communities, routes and features for Bengaluru commuters, once a month.
          </p>
          <Form
            method="post"
            {...getFormProps(form)}
            className="relative mt-4 flex flex-col gap-3 sm:flex-row sm:items-start"
          >
            <HoneypotField />
            <div className="flex-1 [&_label]:text-white [&_[role=alert]]:text-amber-200">
              <Field
                label="E-mail address"
                field={fields.email}
                type="email"
                placeholder="you@example.com"
                autoComplete="email"
              />
            </div>
            <button
              type="submit"
              className="mt-6 rounded-md bg-white px-4 py-2 font-semibold text-emerald-900 hover:bg-emerald-50"
              disabled={navigation.state === "submitting"}
            >
              Subscribe
            </button>
          </Form>
        </div>
      </section>
    </>
  );
}
