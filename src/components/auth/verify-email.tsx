'use client';

import { CheckCircle2, Info, MailCheck } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { VerifyEmailResponse } from '#api/modules/auth/model.ts';
import { Splash } from '#src/components/layout/splash.tsx';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Spinner } from '#src/components/ui/spinner.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import type { Translate } from '#src/i18n/t.ts';
import { EMAIL_FOR_SIGN_IN_KEY, requestLink } from './sign-in-form.tsx';

const REDIRECT_DELAY_MS = 1500;

type State =
  | { kind: 'verifying' }
  | { kind: 'welcome'; message: string }
  | { kind: 'failed'; message: string }
  /** a used or expired link (410): says which, and mails a new one to `email` */
  | { kind: 'link-spent'; message: string; email: string; resend: null | 'busy' | { ok: boolean; message: string } }
  /** the link was opened in a browser that did not ask for it: the person types the email instead */
  | { kind: 'ask-email'; error: string | null; busy: boolean };

/** A refusal carries only an error, so every field may be missing. */
type VerifyResponse = Partial<VerifyEmailResponse>;

type Outcome = { ok: true; message: string; next: string; email: string } | { ok: false; message: string; spent?: boolean };

/** The outcome; a refusal's message is the server's (English, shown through serverText) or the page's own in `t`'s language. */
async function verify(email: string, token: string, t: Translate): Promise<Outcome> {
  const result = await apiCall<VerifyResponse>('/api/auth/verify-email', { method: 'POST', body: { email, token } });
  if (result.status === 0) return { ok: false, message: t('signIn.networkError') };
  if (!result.ok) return { ok: false, message: result.error || t('verify.failed'), spent: result.status === 410 };
  const body = result.data;
  if (!body) return { ok: false, message: t('verify.invalidResponse') };
  if (!body.success) return { ok: false, message: body.message || t('verify.failed') };
  if (!body.user?.uid) return { ok: false, message: t('verify.invalidResponse') };
  window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
  window.localStorage.setItem('user', JSON.stringify({ uid: body.user.uid, email: body.user.email }));
  const next = body.next?.startsWith('/') && !body.next.startsWith('//') ? body.next : '/dashboard';
  return { ok: true, message: body.message ?? `Welcome back! Account found for ${email}. Redirecting to dashboard...`, next, email };
}

/**
 * Finishes the sign-in from the emailed link: the saved email and the link's token open a session.
 * A link opened on another device has no saved email: the spec's line, then a field for the email
 * the link was asked for (the server still checks that it matches the token).
 */
export function VerifyEmail() {
  const { lang, t } = useTexts();
  const [state, setState] = useState<State>({ kind: 'verifying' });
  const [typed, setTyped] = useState('');
  const token = useRef('');
  const started = useRef(false);

  function finish(outcome: Outcome) {
    if (!outcome.ok) return false;
    // the API's welcome is the spec's English line; other languages say it in theirs
    setState({ kind: 'welcome', message: lang === 'en' ? outcome.message : t('verify.welcome', { email: outcome.email }) });
    setTimeout(() => window.location.assign(outcome.next), REDIRECT_DELAY_MS);
    return true;
  }

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    token.current = new URLSearchParams(window.location.search).get('token') ?? '';
    // Keep the one-time token out of the history and of any later Referer.
    window.history.replaceState(null, '', '/verify-email');
    const email = window.localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
    if (!email) {
      setState(token.current ? { kind: 'ask-email', error: null, busy: false } : { kind: 'failed', message: t('verify.noEmail') });
      return;
    }
    void verify(email, token.current, t).then((outcome) => {
      if (!finish(outcome)) setState(failure(outcome, email) ?? { kind: 'failed', message: outcome.message });
    });
  }, []);

  async function submitEmail(event: FormEvent) {
    event.preventDefault();
    const email = typed.trim();
    if (!email || !email.includes('@')) {
      setState({ kind: 'ask-email', error: t('signIn.invalidEmail'), busy: false });
      return;
    }
    setState({ kind: 'ask-email', error: null, busy: true });
    const outcome = await verify(email, token.current, t);
    if (!finish(outcome)) setState(failure(outcome, email) ?? { kind: 'ask-email', error: outcome.message, busy: false });
  }

  /** A spent link is not a dead end: it says whether it was used or expired, and offers a new one. */
  function failure(outcome: Outcome, email: string): State | null {
    return !outcome.ok && outcome.spent ? { kind: 'link-spent', message: outcome.message, email, resend: null } : null;
  }

  async function mailNewLink(email: string, message: string) {
    setState({ kind: 'link-spent', message, email, resend: 'busy' });
    const result = await requestLink(email, undefined, t);
    if (result.kind === 'sent') window.localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, result.email);
    const resend =
      result.kind === 'sent'
        ? { ok: true, message: t('verify.newLinkSent', { email: result.email }) }
        : { ok: false, message: result.kind === 'error' ? result.message : t('signIn.failed') };
    setState({ kind: 'link-spent', message, email, resend });
  }

  if (state.kind === 'verifying') return <Splash />;
  if (state.kind === 'welcome') {
    return (
      <Alert variant="success">
        <CheckCircle2 aria-hidden="true" />
        <AlertTitle>{t('verify.signedIn')}</AlertTitle>
        <AlertDescription>{serverText(lang, state.message)}</AlertDescription>
      </Alert>
    );
  }
  if (state.kind === 'link-spent') {
    const { resend } = state;
    return (
      <div className="flex flex-col gap-4">
        <Alert variant="info" data-testid="link-spent">
          <Info aria-hidden="true" />
          <AlertTitle>{t(state.message.includes('expired') ? 'verify.expired' : 'verify.used')}</AlertTitle>
          <AlertDescription>{serverText(lang, state.message)}</AlertDescription>
        </Alert>
        {resend && resend !== 'busy' ? (
          <p role={resend.ok ? 'status' : 'alert'} className={resend.ok ? 'flex items-center gap-2 text-sm text-success' : 'text-sm font-medium text-destructive'}>
            {resend.ok ? <MailCheck className="size-4" aria-hidden="true" /> : null}
            {serverText(lang, resend.message)}
          </p>
        ) : null}
        {resend && resend !== 'busy' && resend.ok ? null : (
          <Button type="button" disabled={resend === 'busy'} onClick={() => void mailNewLink(state.email, state.message)}>
            {resend === 'busy' ? <Spinner size="sm" label={t('signIn.sending')} /> : null}
            {t('verify.emailNewLink')}
          </Button>
        )}
        <Button asChild variant="outline">
          <a href="/email-signin">{t('verify.back')}</a>
        </Button>
      </div>
    );
  }
  if (state.kind === 'failed') {
    return (
      <div className="flex flex-col gap-4">
        <Alert variant="destructive">
          <AlertTitle>{t('verify.couldNot')}</AlertTitle>
          <AlertDescription>{serverText(lang, state.message)}</AlertDescription>
        </Alert>
        <Button asChild variant="outline">
          <a href="/email-signin">{t('verify.back')}</a>
        </Button>
      </div>
    );
  }
  // The link was opened in a browser that did not ask for it: nothing has failed, one step is left.
  return (
    <div className="flex flex-col gap-4">
      <form onSubmit={submitEmail} noValidate className="flex flex-col gap-3 rounded-lg border bg-card p-4" data-testid="finish-sign-in">
        <h1 className="text-xl font-semibold">{t('verify.finishTitle')}</h1>
        <p className="text-sm text-muted-foreground" data-testid="finish-sign-in-why">
          {t('verify.finishWhy')} <span>{t('verify.noEmail')}</span> {t('verify.finishOther')}
        </p>
        <div className="flex flex-col gap-2">
          <Label htmlFor="link-email">{t('verify.finishLabel')}</Label>
          <Input
            id="link-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            value={typed}
            onChange={(e) => setTyped(e.target.value)}
            aria-invalid={state.error ? true : undefined}
            aria-describedby={state.error ? 'link-email-error' : undefined}
          />
          {state.error ? (
            <p id="link-email-error" role="alert" className="text-sm font-medium text-destructive">
              {serverText(lang, state.error)}
            </p>
          ) : null}
        </div>
        <Button type="submit" disabled={state.busy}>
          {state.busy ? <Spinner size="sm" label={t('signIn.signingIn')} /> : null}
          {t('verify.finishTitle')}
        </Button>
      </form>
      <Button asChild variant="outline">
        <a href="/email-signin">{t('verify.back')}</a>
      </Button>
    </div>
  );
}
