import { type LoaderFunctionArgs } from "@remix-run/cloudflare";
import { istDate } from "~/domain/time";
import { exportMyData } from "~/models/own-data.server";
import { requireUser } from "~/utils/auth.server";
import { orRespond } from "~/utils/errors.server";

// "Download my data" (issue 16): everything stored about the signed-in user, as a JSON file.
// A GET that only reads; the file is theirs alone and never cached.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const data = await orRespond(exportMyData(context, user.id));
  return new Response(JSON.stringify(data, null, 2), {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="loopride-my-data-${istDate()}.json"`,
      "Cache-Control": "private, no-store",
    },
  });
}
