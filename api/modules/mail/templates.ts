import type { NewMail } from './service.ts';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** A plain message with an optional call to action, as text and as simple HTML. */
export function composeMail(input: {
  to: string;
  kind: string;
  subject: string;
  paragraphs: string[];
  action?: { label: string; url: string };
}): NewMail {
  const { to, kind, subject, paragraphs, action } = input;
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), '— SwapPoints'].join('\n\n');
  const html = [
    '<div style="font-family:system-ui,sans-serif;line-height:1.5;color:#111">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`),
    action
      ? `<p><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:10px 16px;background:#0f5f5c;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(action.label)}</a></p>`
      : '',
    '<p style="color:#555">— SwapPoints</p></div>',
  ].join('');
  return { to, kind, subject, text, html, link: action?.url ?? null };
}

export function signInMail(to: string, link: string, ttlMinutes: number): NewMail {
  return composeMail({
    to,
    kind: 'sign_in',
    subject: 'Your SwapPoints sign-in link',
    paragraphs: [
      'Hello,',
      `Use the link below to sign in to SwapPoints. It works once and expires in ${ttlMinutes} minutes.`,
      'If you did not ask to sign in, you can ignore this email: nobody can sign in without the link.',
    ],
    action: { label: 'Sign in to SwapPoints', url: link },
  });
}
