import { Form, Link, useNavigation, useRevalidator } from "@remix-run/react";
import { badgeText } from "./badge-count";
import { MoreLink } from "./more-link";
import { NOTIFICATION_TYPE_LABEL, notificationHref } from "~/domain/notifications";
import { relativeTime } from "~/domain/time";

export type PanelNotification = {
  id: string;
  type: string;
  title: string;
  message: string;
  data: Record<string, unknown>;
  read: boolean;
  createdAt: number;
};

/** Where the panel's forms post: the dashboard index route's action. */
export const NOTIFICATIONS_ACTION = "/dashboard?index";

// Simple stroked icons (emoji need a colour font many systems lack).
const ICONS: Record<string, JSX.Element> = {
  ride_request: (
    <>
      <path d="M5 16V11l2-5h10l2 5v5H5z" />
      <circle cx="8" cy="16" r="1.8" />
      <circle cx="16" cy="16" r="1.8" />
      <path d="M5 11h14" />
    </>
  ),
  ride_update: (
    <>
      <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15z" />
      <path d="M10 20a2 2 0 0 0 4 0" />
    </>
  ),
  message: <path d="M4 5h16v11H9l-5 4z" />,
  community: (
    <>
      <circle cx="9" cy="8" r="3" />
      <circle cx="17" cy="9" r="2.5" />
      <path d="M3 19a6 6 0 0 1 12 0M14 19a4.5 4.5 0 0 1 7 0" />
    </>
  ),
};

/**
 * Each icon is drawn once per page as a <symbol> and each row <use>s it: 30 rows repeating the
 * paths and attributes were a fifth of the dashboard's HTML (issue 17; ADR 0025).
 */
function IconSprite() {
  return (
    <svg aria-hidden="true" width="0" height="0" className="absolute">
      {Object.entries(ICONS).map(([type, paths]) => (
        <symbol key={type} id={`lr-icon-${type}`} viewBox="0 0 24 24">
          {paths}
        </symbol>
      ))}
    </svg>
  );
}

function TypeIcon({ type }: { type: string }) {
  return (
    <span className="lr-note-icon" data-testid={`notification-icon-${type}`}>
      <svg aria-hidden="true" className="lr-note-svg">
        <use href={`#lr-icon-${ICONS[type] ? type : "ride_update"}`} />
      </svg>
      <span className="sr-only">{NOTIFICATION_TYPE_LABEL[type] ?? "Notification"}</span>
    </span>
  );
}

/**
 * The notifications panel: works as plain forms and links without JavaScript (mark read,
 * mark all read, Refresh as a GET); with JavaScript the page revalidates live on new
 * notifications (see LiveUserUpdates) and shows a spinner while loading.
 */
export function NotificationsPanel({
  notifications,
  unread,
  now,
  olderHref = null,
}: {
  notifications: PanelNotification[];
  unread: number;
  now: number;
  olderHref?: string | null;
}) {
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const loading = navigation.state === "loading" || revalidator.state === "loading";
  return (
    <section
      id="notifications"
      aria-labelledby="notifications-title"
      className="scroll-mt-4 rounded-xl border border-slate-200 p-4 dark:border-slate-800"
    >
      {notifications.length > 0 ? <IconSprite /> : null}
      <div className="flex flex-wrap items-center gap-3">
        <div className="mr-auto">
          <h2 id="notifications-title" className="flex items-center gap-2 text-lg font-semibold">
            Notifications
            {unread > 0 ? (
              <span
                data-testid="notifications-unread"
                className="rounded-full bg-red-700 px-2 py-0.5 text-xs font-semibold text-white"
              >
                {badgeText(unread)}
                <span className="sr-only"> unread</span>
              </span>
            ) : null}
          </h2>
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Stay updated with your ride requests and bookings.
          </p>
        </div>
        {loading ? (
          <span role="status" className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-300">
            <span
              aria-hidden="true"
              className="h-4 w-4 animate-spin rounded-full border-2 border-emerald-700 border-t-transparent"
            />
            Loading...
          </span>
        ) : null}
        {unread > 0 ? (
          <Form method="post" action={NOTIFICATIONS_ACTION}>
            <input type="hidden" name="intent" value="mark-all-read" />
            <button
              type="submit"
              className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-900"
            >
              Mark all as read
            </button>
          </Form>
        ) : null}
        <Form method="get" action="/dashboard#notifications">
          <button
            type="submit"
            className="rounded-md border border-slate-400 px-3 py-1.5 text-sm font-medium hover:bg-slate-50 dark:border-slate-600 dark:hover:bg-slate-900"
          >
            Refresh
          </button>
        </Form>
      </div>
      {notifications.length === 0 ? (
        <p className="mt-6 py-6 text-center text-slate-700 dark:text-slate-300">No notifications yet</p>
      ) : (
        <ul
          className="mt-4 max-h-64 divide-y divide-slate-200 overflow-y-auto dark:divide-slate-800"
          data-testid="notification-list"
        >
          {notifications.map((n) => {
            const href = notificationHref(n.type, n.data);
            return (
              <li
                key={n.id}
                data-testid="notification"
                data-read={n.read ? "true" : "false"}
                // Read ones differ by weight and the missing dot, never by fading: 70% opacity
                // took the text below the 4.5:1 contrast minimum (3.6:1 for the time).
                className="lr-note-row"
              >
                <TypeIcon type={n.type} />
                <div className="min-w-0 flex-1">
                  <p
                    className={`text-sm ${n.read ? "font-normal text-slate-700 dark:text-slate-300" : "font-semibold"}`}
                  >
                    {href ? (
                      <Link to={href} className="hover:underline">
                        {n.title}
                      </Link>
                    ) : (
                      n.title
                    )}
                  </p>
                  <p className="lr-muted text-sm">{n.message}</p>
                  <p className="lr-faint">
                    <time dateTime={new Date(n.createdAt).toISOString()}>{relativeTime(n.createdAt, now)}</time>
                  </p>
                </div>
                {!n.read ? (
                  <div className="lr-note-side">
                    <span className="lr-dot" data-testid="unread-dot">
                      <span className="sr-only">Unread</span>
                    </span>
                    {/* The dashboard's own route: no route discovery on each of 30 rows (ADR 0025). */}
                    <Form method="post" action={NOTIFICATIONS_ACTION} discover="none">
                      <input type="hidden" name="intent" value="mark-read" />
                      <input type="hidden" name="id" value={n.id} />
                      <button type="submit" className="lr-note-read">
                        Mark as read<span className="sr-only">: {n.title}</span>
                      </button>
                    </Form>
                  </div>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
      {olderHref ? (
        <div className="mt-3">
          <MoreLink href={olderHref} testId="older-notifications" label="Older notifications" />
        </div>
      ) : null}
    </section>
  );
}
