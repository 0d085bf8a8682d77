// Errors the models throw when the acting user may not do something, or the thing does
// not exist. Routes turn them into responses with `toResponse` (403 / 404 / 409).
export class ForbiddenError extends Error {
  readonly status = 403;
}

export class NotFoundError extends Error {
  readonly status = 404;
}

/** A rule of the domain refused the change (a full ride, a late cancellation...). */
export class ConflictError extends Error {
  readonly status = 409;
}

export type ModelError = ForbiddenError | NotFoundError | ConflictError;

export function isModelError(e: unknown): e is ModelError {
  return e instanceof ForbiddenError || e instanceof NotFoundError || e instanceof ConflictError;
}
