import { handleCreateCommunity } from "~/intents/community-create.server";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useNavigation } from "@remix-run/react";
import { CommunityFormPage } from "~/components/community-form";
import { requireUser } from "~/utils/auth.server";

export const meta: MetaFunction = () => [{ title: "Create Community | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return handleCreateCommunity(request, context, user.id, await request.formData());
}

export default function NewCommunityPage() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  return (
    <div className="mx-auto max-w-xl space-y-6 px-4 py-6 md:px-0">
      <Link to="/communities" className="text-sm font-medium text-emerald-800 underline dark:text-emerald-300">
        Back to Communities
      </Link>
      <h1 className="text-2xl font-bold">Create Community</h1>
      <section className="rounded-xl border border-slate-200 p-6 dark:border-slate-800">
        <CommunityFormPage lastResult={lastResult} submitting={navigation.state === "submitting"} />
      </section>
    </div>
  );
}
