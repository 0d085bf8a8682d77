// Errors the models throw when the acting user may not do something, the thing does not
// exist, or a domain rule refused the change. Models never return null or `{ notFound }`
// for "not found": they throw. `app/utils/errors.server.ts` is the one place that turns
// them into responses (ADR 0013).

/**
 * Optional detail a form can show: `title` is the form-level line, `field` names the input the
 * message belongs to, `link` a same-site page the message is about (the form links to it).
 */
export type ModelErrorDetail = { title?: string; field?: string; link?: string };

abstract class ModelErrorBase extends Error {
  abstract readonly status: 403 | 404 | 409;
  readonly title?: string;
  readonly field?: string;
  readonly link?: string;
  constructor(message: string, detail: ModelErrorDetail = {}) {
    super(message);
    this.title = detail.title;
    this.field = detail.field;
    this.link = detail.link;
  }
}

export class ForbiddenError extends ModelErrorBase {
  readonly status = 403;
}

export class NotFoundError extends ModelErrorBase {
  readonly status = 404;
}

/** A rule of the domain refused the change (a full ride, a late cancellation...). */
export class ConflictError extends ModelErrorBase {
  readonly status = 409;
}

export type ModelError = ForbiddenError | NotFoundError | ConflictError;

export function isModelError(e: unknown): e is ModelError {
  return e instanceof ForbiddenError || e instanceof NotFoundError || e instanceof ConflictError;
}
