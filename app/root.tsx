import { data, type LinksFunction, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Links, Meta, Outlet, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useState, type ReactNode } from "react";
import stylesheet from "./app.css?url";
import { GeneralErrorBoundary } from "./components/error-boundary";
import { useNonce } from "./components/nonce";
import { PageScripts } from "./components/page-scripts";
import { TOAST_EVENT, ToastView, type ToastData } from "./components/toast";
import { getUser } from "./utils/auth.server";
import { backHref } from "./utils/back-link.server";
import { consumeToast } from "./utils/toast.server";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: "LoopRide: community carpooling for Bengaluru" },
  {
    name: "description",
    content: "Share rides with your neighbours and colleagues in Bengaluru. Save money, cut CO2, meet people.",
  },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [user, { toast, clear }] = await Promise.all([getUser(request, context), consumeToast(request, context.env)]);
  return data(
    {
      user: user && {
        id: user.id,
        fullName: user.fullName,
        firstName: user.firstName,
        email: user.email ?? user.phone,
        avatarUrl: user.avatarUrl,
        hasCar: user.hasCar,
      },
      darkMode: user?.darkMode ?? false,
      toast,
      // Links that leave the site (a WhatsApp share without JavaScript) carry its public
      // address, as e-mails do (APP_ORIGIN), not whatever host the request came in on.
      origin: (context.env.APP_ORIGIN || new URL(request.url).origin).replace(/\/+$/, ""),
      // A route's 404 (the shared error boundary) goes back here without JavaScript.
      back: backHref(request, "/"),
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

export type RootLoader = typeof loader;

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<RootLoader>("root");
  return (
    <html lang="en-IN" className={root?.darkMode ? "dark" : ""}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={root?.darkMode ? "dark" : "light"} />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        {children}
        <PageScripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  const root = useRouteLoaderData<RootLoader>("root");
  // The flash toast arrives with one response; a later revalidation (a live update, a
  // poll) returns none. Keep showing the last one until it times out or is dismissed.
  const [toast, setToast] = useState(() => (root?.toast ? { ...root.toast, seq: 0 } : null));
  const incoming = root?.toast ?? null;
  useEffect(() => {
    if (incoming) setToast((t) => ({ ...incoming, seq: (t?.seq ?? 0) + 1 }));
  }, [incoming]);
  // Live notifications (components/live.tsx) use the same single slot.
  useEffect(() => {
    // Every mount effect has run once this one has (parents' effects run last): tests wait
    // for it instead of for network silence, which a live socket or a slow module delays.
    document.documentElement.dataset.hydrated = "true";
    const show = (e: Event) => {
      const detail = (e as CustomEvent<ToastData>).detail;
      setToast((t) => ({ ...detail, seq: (t?.seq ?? 0) + 1 }));
    };
    window.addEventListener(TOAST_EVENT, show);
    return () => window.removeEventListener(TOAST_EVENT, show);
  }, []);
  return (
    <>
      <Outlet />
      {toast ? <ToastView key={toast.seq} toast={toast} /> : null}
    </>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
