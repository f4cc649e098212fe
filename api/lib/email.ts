/**
 * The spec's rule for an email: non-empty and containing '@'. We also refuse spaces and an empty
 * side of the '@', which no mailbox has. Emails are compared in lower case.
 */
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';

export function isValidEmail(value: string): boolean {
  const email = value.trim();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email);
}

export function normalizeEmail(value: string): string {
  return value.trim().toLowerCase();
}
