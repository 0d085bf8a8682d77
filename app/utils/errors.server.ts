import { data } from "@remix-run/cloudflare";
import { isModelError } from "../models/errors.server";

/**
 * Runs a model call; a ForbiddenError / NotFoundError / ConflictError becomes a thrown
 * response with its status and message (rendered by the shared error boundary).
 */
export async function orRespond<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (e) {
    if (isModelError(e)) throw data(e.message, { status: e.status });
    throw e;
  }
}
