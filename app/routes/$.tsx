import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/not-found";
import { backHref } from "~/utils/back-link.server";

export const meta: MetaFunction = () => [{ title: "Page Not Found | LoopRide" }];

export async function loader({ request }: LoaderFunctionArgs) {
  // "Go Back" without JavaScript: the same-site page the visitor came from.
  return data({ backHref: backHref(request, "/") }, { status: 404 });
}

export default function CatchAll() {
  const { backHref } = useLoaderData<typeof loader>();
  return <NotFound backHref={backHref} />;
}
