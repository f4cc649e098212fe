import { DATABASE_UNAVAILABLE } from '#api/db/resilience.ts';
import { ACTION_LABELS, ACTION_LABELS_HI, ERROR_SCREENS, ERROR_TITLES_HI, STILL_AVAILABLE, supportMailto } from '#api/lib/error-screen.ts';

/**
 * The error screen for a page that could not be rendered: the spec's Connection Error (503, the
 * database is unreachable) or Something Went Wrong (500), with its two buttons, as a small page of
 * its own that needs neither the database nor a script. Never a stack trace.
 */

const INTERNAL = 'Something went wrong on our side. Please try again later.';

/** The page in Hindi: a visitor whose chosen language (cookie) or browser says Hindi reads it so; a reason noted by the page stays as it was written. */
const HINDI = {
  internal: 'हमारी तरफ़ कुछ गड़बड़ हो गई। कृपया थोड़ी देर बाद कोशिश करें।',
  databaseDown: 'सेवा कुछ पल के लिए उपलब्ध नहीं है। कृपया थोड़ी देर में फिर कोशिश करें।',
  request: 'रिक्वेस्ट',
};

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** `message`: what the page noted as the reason (page-failures.ts); the database being down says more. */
export function errorPage(options: {
  databaseDown: boolean;
  message?: string;
  supportEmail: string;
  path: string;
  requestId: string;
  /** the reader's language (the edge reads it from the request: no database needed) */
  lang?: 'en' | 'hi';
}): Response {
  const variant = options.databaseDown || options.message ? 'connection_error' : 'other';
  const hindi = options.lang === 'hi';
  const screen = { title: hindi ? ERROR_TITLES_HI[variant] : ERROR_SCREENS[variant].title };
  const actions = hindi ? ACTION_LABELS_HI : ACTION_LABELS;
  const message = options.databaseDown ? (hindi ? HINDI.databaseDown : DATABASE_UNAVAILABLE) : (options.message ?? (hindi ? HINDI.internal : INTERNAL));
  const button = 'display:inline-block;padding:8px 14px;border-radius:6px;border:1px solid #d4d4d8;color:#18181b;text-decoration:none;margin:4px 8px 0 0';
  const html = `<!doctype html>
<html lang="${hindi ? 'hi' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(screen.title)} · SwapPoints</title></head>
<body style="font-family:system-ui,sans-serif;background:#fafafa;margin:0;padding:48px 16px;color:#18181b">
<main id="main" style="max-width:32rem;margin:0 auto;background:#fff;border:1px solid #e4e4e7;border-radius:12px;padding:24px">
<div role="alert" data-testid="error-screen" data-variant="${variant}">
<h1 style="font-size:1.25rem;margin:0 0 8px;color:#b91c1c">${escape(screen.title)}</h1>
<p style="margin:0 0 12px;color:#52525b">${escape(message)}</p>
<p style="margin:0 0 16px;font-size:.875rem;color:#71717a">${hindi ? STILL_AVAILABLE.hi : STILL_AVAILABLE.en}</p>
<a href="${escape(options.path)}" style="${button}">${actions.refresh}</a><a href="${escape(supportMailto(options.supportEmail, variant))}" style="${button}">${actions['contact-support']}</a>
<p style="margin:16px 0 0;font-size:.75rem;color:#a1a1aa">${hindi ? HINDI.request : 'Request'} ${escape(options.requestId)}</p>
</div></main></body></html>
`;
  return new Response(html, {
    status: options.databaseDown ? 503 : 500,
    headers: { 'content-type': 'text/html; charset=utf-8', ...(options.databaseDown ? { 'retry-after': '5' } : {}) },
  });
}
