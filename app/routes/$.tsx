import { data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { NotFound } from "~/components/not-found";

export const meta: MetaFunction = () => [{ title: "Page Not Found | LoopRide" }];

export async function loader({ request }: LoaderFunctionArgs) {
  // "Go Back" without JavaScript: the same-site page the visitor came from.
  const referer = request.headers.get("Referer");
  let backHref = "/";
  if (referer) {
    const ref = new URL(referer, request.url);
    if (ref.origin === new URL(request.url).origin) backHref = ref.pathname + ref.search;
  }
  return data({ backHref }, { status: 404 });
}

export default function CatchAll() {
  const { backHref } = useLoaderData<typeof loader>();
  return <NotFound backHref={backHref} />;
}
