import { parseWithZod } from "@conform-to/zod";
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/cloudflare";
import { Link, useActionData, useNavigation } from "@remix-run/react";
import { CommunityFormPage } from "~/components/community-form";
import { createCommunity } from "~/models/communities.server";
import { createCommunitySchema } from "~/schemas/communities";
import { requireUser } from "~/utils/auth.server";
import { orFormError } from "~/utils/errors.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Create Community | LoopRide" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const submission = parseWithZod(await request.formData(), { schema: createCommunitySchema });
  if (submission.status !== "success") return data(submission.reply(), { status: 400 });
  return orFormError(
    submission,
    async () => {
      const created = await createCommunity(context, user.id, submission.value);
      return redirectWithToast(request, context.env, `/communities/${created.id}`, { title: "Community created successfully!" });
    },
    { unexpected: "Failed to create community. Please try again." },
  );
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
