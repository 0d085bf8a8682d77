import { Outlet, useRouteLoaderData } from "@remix-run/react";
import { PublicFooter } from "~/components/public-footer";
import { PublicHeader } from "~/components/public-header";
import type { RootLoader } from "~/root";

export default function PublicLayout() {
  const root = useRouteLoaderData<RootLoader>("root");
  return (
    <div className="flex min-h-screen flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <PublicHeader user={root?.user ?? null} />
      <main id="main" className="flex-1">
        <Outlet />
      </main>
      <PublicFooter />
    </div>
  );
}
