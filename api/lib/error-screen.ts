/**
 * The error screen for credit and profile failures (spec §2, §8): which of the four variants a
 * failed call shows, and each variant's title and buttons.
 */

/** §8: the profile could not be loaded (any failure but an ended session). */
export const PROFILE_LOAD_FAILED = 'Failed to load user profile. Please try again later.';

export type ErrorVariant = 'shopify_user_not_found' | 'connection_error' | 'auth_error' | 'other';
export type ErrorAction = 'try-again' | 'refresh' | 'contact-support' | 'sign-out';

export const ERROR_SCREENS: Record<ErrorVariant, { title: string; actions: readonly [ErrorAction, ErrorAction] }> = {
  shopify_user_not_found: { title: 'Shopify Account Not Found', actions: ['try-again', 'contact-support'] },
  connection_error: { title: 'Connection Error', actions: ['refresh', 'contact-support'] },
  auth_error: { title: 'Authentication Error', actions: ['try-again', 'sign-out'] },
  other: { title: 'Something Went Wrong', actions: ['refresh', 'contact-support'] },
};

export const ACTION_LABELS: Record<ErrorAction, string> = {
  'try-again': 'Try Again',
  refresh: 'Refresh',
  'contact-support': 'Contact Support',
  'sign-out': 'Sign Out',
};

/** What every error screen says under its message: in English and Hindi (the customer pages' catalogs and the edge's error page read these). */
export const STILL_AVAILABLE = {
  en: 'Your exchange requests are still available. If this keeps happening, contact our support team.',
  hi: 'आपकी एक्सचेंज रिक्वेस्ट सुरक्षित हैं। अगर ऐसा बार-बार हो, तो हमारी सहायता टीम से संपर्क करें।',
} as const;

/** The variants' titles and the buttons in Hindi (the English are ERROR_SCREENS and ACTION_LABELS). */
export const ERROR_TITLES_HI: Record<ErrorVariant, string> = {
  shopify_user_not_found: 'Shopify अकाउंट नहीं मिला',
  connection_error: 'कनेक्शन में गड़बड़ी',
  auth_error: 'पहचान की पुष्टि नहीं हो सकी',
  other: 'कुछ गड़बड़ हो गई',
};
export const ACTION_LABELS_HI: Record<ErrorAction, string> = {
  'try-again': 'फिर से कोशिश करें',
  refresh: 'रीफ़्रेश करें',
  'contact-support': 'सहायता टीम से संपर्क करें',
  'sign-out': 'साइन आउट करें',
};

/** A failed call as the page saw it: the HTTP status (0 when no response came) and the server's error text. */
export interface FailedCall {
  status: number | null;
  error: string | null;
}

/**
 * §8's credit rules: 'not found' in the text or HTTP 404 → shopify_user_not_found; 401 → auth_error
 * (the session is no longer valid); any other response, or none at all → connection_error; a
 * failure that is not a call's (status null) → other.
 */
export function errorVariant(failure: FailedCall): ErrorVariant {
  const text = (failure.error ?? '').toLowerCase();
  if (failure.status === 404 || text.includes('not found')) return 'shopify_user_not_found';
  if (failure.status === 401) return 'auth_error';
  if (failure.status === null) return 'other';
  return 'connection_error';
}

/** The message under the title: the server's error, else §8's fallback for the variant. */
export function errorMessage(failure: FailedCall): string {
  if (failure.error) return failure.error;
  switch (errorVariant(failure)) {
    case 'shopify_user_not_found':
      return 'User not found in Shopify';
    case 'connection_error':
      return failure.status === 0 ? 'No response from server' : 'Error connecting to Shopify';
    case 'auth_error':
      return PROFILE_LOAD_FAILED;
    default:
      return 'Failed to load data. Please try again later.';
  }
}

/** Contact Support: a mail to the support address, with the failure in the subject. */
export function supportMailto(supportEmail: string, variant: ErrorVariant): string {
  const subject = encodeURIComponent(`SwapPoints: ${ERROR_SCREENS[variant].title}`);
  return `mailto:${supportEmail}?subject=${subject}`;
}
