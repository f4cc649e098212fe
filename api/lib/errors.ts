/**
 * An expected failure: a status and a message the person can act on, carried to the client as
 * `{ error, ...extra }`. Services throw it; the app's error handler turns it into the response.
 */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body(): Record<string, unknown> {
    return { error: this.message, ...this.extra };
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError(400, message, extra);
export const unauthorized = (message = 'Please sign in to continue.') => new AppError(401, message);
export const forbidden = (message = 'You need admin access for this.') => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, extra);
