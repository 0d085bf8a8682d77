import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useFetcher, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { GenderSetting } from "~/components/car-and-gender";
import { ConfirmEmailBanner } from "~/components/confirm-email-banner";
import { CalendarFeed, PushDevice } from "~/components/reach-settings";
import { showToast } from "~/components/toast";
import { handleSettingsPost } from "~/intents/settings.server";
import { getOwnPushAndFeed } from "~/models/calendar.server";
import { vapidKeys } from "~/models/push.server";
import { BlockedList, OwnDataSection, SignOutEverywhere } from "~/components/settings-safety";
import { blockedQuery } from "~/models/safety.server";
import { ownSettingsQuery, settingsFrom } from "~/models/settings.server";
import { ownGenderQuery } from "~/models/profiles.server";
import { SETTINGS, type SettingKey } from "~/schemas/profile";
import { requireUser } from "~/utils/auth.server";
import { calendarFeedCookie, calendarFeedUrl } from "~/utils/calendar-feed.server";

export const meta: MetaFunction = () => [{ title: "Settings | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // Issue 15: this browser's push subscription and the private calendar feed.
  const shownToken = await calendarFeedCookie(request, context.env).parse(request);
  // One batch: the settings and the blocked people ride with the push and feed reads.
  const { endpoints, feed, also } = await getOwnPushAndFeed(
    context,
    user.id,
    typeof shownToken === "string" ? shownToken : null,
    [ownSettingsQuery(context.db, user.id), blockedQuery(context.db, user.id), ownGenderQuery(context.db, user.id)],
  );
  const gender = (also[2] as Awaited<ReturnType<typeof ownGenderQuery>>)[0]?.gender ?? null;
  const settings = settingsFrom(also[0]);
  const blocked = also[1] as Awaited<ReturnType<typeof blockedQuery>>;
  const feedUrl =
    feed?.tokenIsCurrent && typeof shownToken === "string"
      ? calendarFeedUrl(new URL(request.url).origin, shownToken)
      : null;
  return {
    settings,
    push: { vapidPublicKey: vapidKeys(context.env)?.publicKey ?? null, endpoints },
    feed: feed ? { createdAt: feed.createdAt } : null,
    feedUrl,
    blocked,
    gender,
    // From the session's own read (no round trip): e-mail waits for a confirmed address.
    email: { address: user.email, verified: user.emailVerified },
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleSettingsPost(request, context, user.id, await request.formData());
}

const GROUPS = ["Notifications", "Privacy", "Appearance"] as const;

export default function SettingsPage() {
  const { settings, push, feed, feedUrl, blocked, email, gender } = useLoaderData<typeof loader>();
  // Notification e-mails go only to a confirmed address, whatever the switch says.
  const emailPaused = !!email.address && !email.verified;
  return (
    <div className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold">Settings</h1>
      <p className="text-slate-700 dark:text-slate-300">Manage your account preferences</p>
      <div className="mt-6 space-y-6">
        <ConfirmEmailBanner email={email.address} verified={email.verified} back="/dashboard/settings" />
        {GROUPS.map((group) => (
          <section
            key={group}
            aria-labelledby={`group-${group}`}
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
          >
            <h2 id={`group-${group}`} className="text-lg font-semibold">
              {group}
            </h2>
            <ul className="mt-2 divide-y divide-slate-200 dark:divide-slate-800">
              {SETTINGS.filter((s) => s.group === group).map((s) => (
                <li key={s.key} className="flex items-center justify-between gap-4 py-3">
                  <div>
                    <p className="font-medium" id={`label-${s.key}`}>
                      {s.label}
                    </p>
                    <p className="text-sm text-slate-700 dark:text-slate-300">{s.description}</p>
                    {s.key === "emailNotifications" && emailPaused ? (
                      <p className="text-sm font-medium text-amber-900 dark:text-amber-200" data-testid="email-paused">
                        E-mail is paused until you confirm your address.
                      </p>
                    ) : null}
                  </div>
                  <SettingToggle setting={s.key} value={settings[s.key]} />
                </li>
              ))}
              {group === "Notifications" ? (
                <li>
                  <PushDevice
                    vapidPublicKey={push.vapidPublicKey}
                    endpoints={push.endpoints}
                    settingOn={settings.pushNotifications}
                  />
                </li>
              ) : null}
            </ul>
          </section>
        ))}
        <GenderSetting gender={gender} />
        <CalendarFeed feed={feed} feedUrl={feedUrl} />
        <BlockedList people={blocked} />
        <SignOutEverywhere />
        <OwnDataSection />
      </div>
    </div>
  );
}

/** A switch that is a real submit button: a form POST without JS, applied at once (and rolled back on failure) with JS. */
function SettingToggle({ setting, value }: { setting: SettingKey; value: boolean }) {
  // The action answers a failed toggle with { ok: false } (a success is a redirect).
  const fetcher = useFetcher<{ ok: boolean; error?: string }>();

  const pending = fetcher.formData?.get("value");
  const shown = pending ? pending === "on" : value;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data && !fetcher.data.ok)
      showToast({ title: "Failed to update setting. Please try again.", type: "error" });
  }, [fetcher.state, fetcher.data]);
  useEffect(() => {
    if (setting === "darkMode" && pending) document.documentElement.classList.toggle("dark", pending === "on");
  }, [pending, setting]);
  return (
    <fetcher.Form method="post">
      <input type="hidden" name="setting" value={setting} />
      <input type="hidden" name="value" value={shown ? "off" : "on"} />
      <button
        type="submit"
        role="switch"
        aria-checked={shown}
        aria-labelledby={`label-${setting}`}
        data-testid={`toggle-${setting}`}
        className={`relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent transition ${shown ? "bg-emerald-700" : "bg-slate-400 dark:bg-slate-600"}`}
      >
        <span
          className={`inline-block h-5 w-5 rounded-full bg-white shadow transition ${shown ? "translate-x-5" : "translate-x-0.5"}`}
        />
        <span className="sr-only">{shown ? "On" : "Off"}</span>
      </button>
    </fetcher.Form>
  );
}
