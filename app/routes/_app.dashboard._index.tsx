import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { STATUS_LABEL } from "~/domain/profile-score";
import { getOwnProfile } from "~/models/profiles.server";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const { progress } = await getOwnProfile(context, user.id);
  return { firstName: user.fullName?.trim().split(/\s+/)[0] || "User", progress };
}

export default function DashboardOverview() {
  const { firstName, progress } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-5xl space-y-6">
      <h1 className="text-2xl font-bold">{`Welcome back, ${firstName}`}</h1>
      {progress.status !== "complete" ? (
        <section aria-labelledby="profile-progress" className="rounded-xl border border-amber-300 bg-amber-50 p-4 dark:border-amber-800 dark:bg-amber-950">
          <h2 id="profile-progress" className="font-semibold">
            Your profile is {progress.score}% complete ({STATUS_LABEL[progress.status]})
          </h2>
          <ul className="mt-2 list-inside list-disc text-sm">
            {progress.hints.map((h) => (
              <li key={h}>{h}</li>
            ))}
          </ul>
          <Link to="/profile-completion" className="mt-3 inline-block text-sm font-semibold text-emerald-800 underline dark:text-emerald-300">
            Complete your profile
          </Link>
        </section>
      ) : null}
      <section aria-labelledby="quick-actions" className="grid gap-4 sm:grid-cols-3">
        <h2 id="quick-actions" className="sr-only">Quick actions</h2>
        <Link to="/rides" className="rounded-xl border border-slate-200 p-4 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900">
          <p className="font-semibold">Find a ride</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">Browse rides in your communities.</p>
        </Link>
        <Link to="/rides/create" className="rounded-xl border border-slate-200 p-4 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900">
          <p className="font-semibold">Offer a ride</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">Share the empty seats in your car.</p>
        </Link>
        <Link to="/communities" className="rounded-xl border border-slate-200 p-4 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900">
          <p className="font-semibold">Join a community</p>
          <p className="text-sm text-slate-700 dark:text-slate-300">Your apartment, office or interest group.</p>
        </Link>
      </section>
    </div>
  );
}
