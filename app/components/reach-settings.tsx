import { Form, useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { formatDateTimeShort } from "~/domain/time";
import { dangerButtonClass, inputClass, smallButtonClass, smallPrimaryClass } from "./styles";

type PushState = "no-js" | "checking" | "unsupported" | "not-configured" | "blocked" | "off" | "on" | "busy";

const PUSH_TEXT: Record<PushState, string> = {
  "no-js":
    "Browser notifications need JavaScript in this browser: turn it on here to get them. Everything else on this page works without it.",
  checking: "Checking this browser…",
  unsupported: "This browser cannot receive push notifications.",
  "not-configured": "Browser notifications are not set up on this server.",
  blocked: "Notifications are blocked for LoopRide in this browser's site settings. Allow them there, then come back.",
  off: "This browser is not subscribed.",
  on: "This browser is subscribed: you get ride updates here even when no LoopRide tab is open.",
  busy: "Working…",
};

/**
 * Web Push for THIS browser (a browser can only subscribe through the Push API, so this part
 * needs JavaScript; without it the server-rendered text says so). The service worker is
 * public/sw.js; the subscription is stored through POST /push-subscription.
 */
export function PushDevice({
  vapidPublicKey,
  endpoints,
  settingOn,
}: {
  vapidPublicKey: string | null;
  endpoints: string[];
  settingOn: boolean;
}) {
  const fetcher = useFetcher();
  const [state, setState] = useState<PushState>("no-js");
  const [sub, setSub] = useState<PushSubscription | null>(null);

  useEffect(() => {
    if (!vapidPublicKey) return setState("not-configured");
    if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window))
      return setState("unsupported");
    setState("checking");
    navigator.serviceWorker
      .register("/sw.js")
      .then((reg) => reg.pushManager.getSubscription())
      .then((s) => {
        setSub(s);
        if (Notification.permission === "denied") setState("blocked");
        else setState(s && endpoints.includes(s.endpoint) ? "on" : "off");
      })
      .catch(() => setState("unsupported"));
  }, [vapidPublicKey, endpoints]);

  async function turnOn() {
    setState("busy");
    try {
      if ((await Notification.requestPermission()) !== "granted") return setState("blocked");
      const reg = await navigator.serviceWorker.ready;
      // A subscription this account does not hold (another account's, or stale) is dropped so
      // the browser makes a new endpoint: the server refuses to re-assign one (issue 34).
      const old = await reg.pushManager.getSubscription();
      if (old && !endpoints.includes(old.endpoint)) await old.unsubscribe().catch(() => false);
      const s = await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: vapidPublicKey ?? "" });
      const keys = s.toJSON().keys ?? {};
      setSub(s);
      fetcher.submit(
        { intent: "subscribe", endpoint: s.endpoint, p256dh: keys.p256dh ?? "", auth: keys.auth ?? "" },
        { method: "post", action: "/push-subscription" },
      );
    } catch {
      setState("unsupported");
    }
  }

  async function turnOff() {
    if (!sub) return;
    setState("busy");
    const endpoint = sub.endpoint;
    await sub.unsubscribe().catch(() => false);
    setSub(null);
    fetcher.submit({ intent: "unsubscribe", endpoint }, { method: "post", action: "/push-subscription" });
  }

  return (
    <div className="py-3" data-testid="push-device" data-state={state}>
      <p className="font-medium">Notifications on this browser</p>
      <p className="text-sm text-slate-700 dark:text-slate-300" role="status">
        {PUSH_TEXT[state]}
      </p>
      {!settingOn && state !== "no-js" ? (
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Push notifications are off above, so nothing is sent until you turn them on.
        </p>
      ) : null}
      {state === "off" ? (
        <button type="button" className={`${smallPrimaryClass} mt-2`} onClick={turnOn} data-testid="push-on">
          Turn on for this browser
        </button>
      ) : null}
      {state === "on" ? (
        <button type="button" className={`${smallButtonClass} mt-2`} onClick={turnOff} data-testid="push-off">
          Turn off for this browser
        </button>
      ) : null}
    </div>
  );
}

/** The private calendar feed: plain forms, so it works without JavaScript. */
/** The feed's address for calendar apps: webcal:// is how they are told to subscribe. */
export const webcalUrl = (feedUrl: string) => feedUrl.replace(/^https?:/, "webcal:");

/** Copies `text` (JavaScript only: without it the button is not shown and the field is selectable). */
function CopyButton({ text }: { text: string }) {
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState<boolean | null>(null);
  useEffect(() => setHydrated(true), []);
  if (!hydrated) return null;
  return (
    <>
      <button
        type="button"
        className={smallButtonClass}
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(text);
            setCopied(true);
          } catch {
            setCopied(false);
          }
        }}
      >
        Copy URL
      </button>
      <span role="status" className="text-sm">
        {copied === true ? "Copied" : copied === false ? "Could not copy: select the URL and copy it" : ""}
      </span>
    </>
  );
}

export function CalendarFeed({ feed, feedUrl }: { feed: { createdAt: number } | null; feedUrl: string | null }) {
  return (
    <section
      id="calendar"
      aria-labelledby="group-calendar"
      className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
    >
      <h2 id="group-calendar" className="text-lg font-semibold">
        Calendar
      </h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        A private feed of your upcoming rides (as driver, and your confirmed seats) for Google Calendar, Outlook or
        Apple Calendar: add it there as a calendar "from URL". Anyone with the URL can read it, so keep it to yourself.
      </p>
      {feedUrl ? (
        <div className="mt-3">
          <label htmlFor="calendar-feed-url" className="text-sm font-medium">
            Your feed URL (shown only now; copy it into your calendar app)
          </label>
          <input
            id="calendar-feed-url"
            data-testid="calendar-feed-url"
            readOnly
            value={feedUrl}
            className={`${inputClass} mt-1 font-mono text-xs`}
          />
          <div className="mt-2 flex flex-wrap items-center gap-2">
            <CopyButton text={feedUrl} />
            {/* webcal:// asks the device's calendar app to subscribe: no copying, no JavaScript. */}
            <a href={webcalUrl(feedUrl)} className={smallButtonClass} data-testid="calendar-feed-webcal">
              Add to my calendar app
            </a>
          </div>
        </div>
      ) : feed ? (
        <p className="mt-3 text-sm" data-testid="calendar-feed-on">
          {`Your feed is on (made ${formatDateTimeShort(feed.createdAt)}). Its URL is shown only once; make a new one if you need it again (the old one then stops working).`}
        </p>
      ) : (
        <p className="mt-3 text-sm" data-testid="calendar-feed-none">
          You have no calendar feed.
        </p>
      )}
      <div className="mt-3 flex flex-wrap gap-2">
        <Form method="post" action="/calendar-feed">
          <input type="hidden" name="intent" value="create-feed" />
          <button type="submit" className={smallPrimaryClass}>
            {feed ? "Make a new feed URL" : "Get a calendar feed URL"}
          </button>
        </Form>
        {feed ? (
          <Form method="post" action="/calendar-feed">
            <input type="hidden" name="intent" value="revoke-feed" />
            <button type="submit" className={dangerButtonClass}>
              Turn off the feed
            </button>
          </Form>
        ) : null}
      </div>
    </section>
  );
}
