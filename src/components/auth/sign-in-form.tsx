'use client';

import { Info, MailCheck } from 'lucide-react';
import { useRef, useState, type FormEvent } from 'react';
import type { LoginResponse } from '#api/modules/auth/model.ts';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Spinner } from '#src/components/ui/spinner.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { en } from '#src/i18n/en.ts';
import { t as translate, type Translate } from '#src/i18n/t.ts';
import { apiCall } from '#src/lib/api-client.ts';
import { useHydrated } from '#src/lib/use-hydrated.ts';
import { useTypedBeforeHydration } from '#src/lib/use-typed-before-hydration.ts';

export const EMAIL_FOR_SIGN_IN_KEY = 'emailForSignIn';
/** How long an emailed link works (the server's SIGN_IN_LINK_TTL_MINUTES). */
const LINK_TTL_MINUTES = 10;

export type Outcome =
  | { kind: 'sent'; email: string }
  | { kind: 'not-in-shop'; email: string }
  | { kind: 'error'; message: string };

/** The spec's messages for each way a sign-in can fail (§8). */
export async function requestLink(email: string, next: string | undefined, t: Translate = (key) => translate('en', key)): Promise<Outcome> {
  const result = await apiCall<LoginResponse>('/api/auth/login', { method: 'POST', body: { email, ...(next ? { next } : {}) } });
  if (result.status === 202) return { kind: 'sent', email: result.data?.email ?? email };
  if (result.status === 0) return { kind: 'error', message: t('signIn.networkError') };
  if (result.status === 422) return { kind: 'not-in-shop', email };
  if (result.status >= 500) {
    return { kind: 'error', message: t('signIn.serverError') };
  }
  return { kind: 'error', message: result.error || t('signIn.failed') };
}

/**
 * The not-in-shop line: the spec's words when the shop is a Shopify shop; otherwise it names the
 * shop (SHOP_NAME) instead of a Shopify database it does not have.
 */
export function notInShopTitle(email: string, shop: { name: string; backend: string }, t: Translate = (key, params) => translate('en', key, params)): string {
  if (shop.backend === 'shopify') return t('signIn.notInShopify', { email });
  return t('signIn.notInShop', { email, shop: shop.name });
}

export const ADMIN_SIGN_IN_NOTE = en['signIn.adminNote'];

export function SignInForm({
  next,
  registerUrl,
  shopName,
  shopBackend,
  linkLimit,
}: {
  next?: string;
  registerUrl: string;
  shopName: string;
  shopBackend: string;
  /** links one email may be sent per 15 minutes (SIGNIN_LIMIT_PER_EMAIL): past it the server sends none */
  linkLimit: number;
}) {
  // /admin sent a signed-out visitor here: the page speaks to an admin, not a customer
  const { lang, t } = useTexts();
  const forAdmin = next === '/admin' || (next?.startsWith('/admin/') ?? false) || (next?.startsWith('/admin?') ?? false);
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [resent, setResent] = useState<{ ok: boolean; message: string } | null>(null);
  // links asked for from this page: 'Send a new link' stops where the server would stop sending
  const [asked, setAsked] = useState(0);
  const atLimit = asked >= linkLimit;
  const emailField = useRef<HTMLInputElement>(null);
  const form = useRef<HTMLFormElement>(null);
  const hydrated = useHydrated();
  useTypedBeforeHydration(form, (name, value) => name === 'email' && setEmail(value));

  async function resend(to: string) {
    setBusy(true);
    setResent(null);
    const result = await requestLink(to, next, t);
    setBusy(false);
    if (result.kind === 'sent') {
      window.localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, result.email);
      setAsked((n) => n + 1);
      setResent({ ok: true, message: t('signIn.resent', { email: result.email }) });
    } else {
      setResent({ ok: false, message: result.kind === 'error' ? result.message : t('signIn.failed') });
    }
  }

  function startOver() {
    setOutcome(null);
    setResent(null);
    setEmail('');
    window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
    requestAnimationFrame(() => emailField.current?.focus());
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = email.trim();
    if (!trimmed || !trimmed.includes('@')) {
      setInvalid(true);
      setOutcome(null);
      return;
    }
    setInvalid(false);
    setResent(null);
    setBusy(true);
    const result = await requestLink(trimmed, next, t);
    if (result.kind === 'sent') {
      window.localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, result.email);
      setAsked(1);
    }
    setOutcome(result);
    setBusy(false);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">
          {t('signIn.title')}
        </CardTitle>
        <CardDescription>{t(forAdmin ? 'signIn.adminTagline' : 'signIn.tagline')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Alert variant="info" data-testid="sign-in-who">
          <Info aria-hidden="true" />
          {forAdmin ? (
            <AlertDescription>{t('signIn.adminNote')}</AlertDescription>
          ) : (
            <AlertDescription>{t('signIn.who')}</AlertDescription>
          )}
        </Alert>

        {outcome?.kind === 'sent' ? (
          <Alert variant="success">
            <MailCheck aria-hidden="true" />
            <AlertTitle>{t('signIn.checkEmail')}</AlertTitle>
            <AlertDescription className="flex flex-col gap-2">
              <span>{t('signIn.sent', { email: outcome.email })}</span>
              <span className="text-foreground">
                {t('signIn.expires', { minutes: LINK_TTL_MINUTES })}
              </span>
            </AlertDescription>
          </Alert>
        ) : null}
        {outcome?.kind === 'sent' ? (
          <div className="flex flex-col gap-2 sm:flex-row">
            <Button
              type="button"
              variant="outline"
              disabled={busy || !hydrated || atLimit}
              aria-describedby={atLimit ? 'link-limit' : undefined}
              onClick={() => void resend(outcome.email)}
            >
              {busy ? <Spinner size="sm" label={t('signIn.sending')} /> : null}
              {t('signIn.sendNew')}
            </Button>
            <Button type="button" variant="ghost" onClick={startOver}>
              {t('signIn.otherEmail')}
            </Button>
          </div>
        ) : null}
        {outcome?.kind === 'sent' && atLimit ? (
          <p id="link-limit" className="text-sm text-muted-foreground">
            {t('signIn.atLimit')}
          </p>
        ) : null}
        {resent ? (
          <p role={resent.ok ? 'status' : 'alert'} className={resent.ok ? 'text-sm text-success' : 'text-sm font-medium text-destructive'}>
            {serverText(lang, resent.message)}
          </p>
        ) : null}
        {outcome?.kind === 'not-in-shop' ? (
          <Alert variant="destructive">
            <AlertTitle>{notInShopTitle(outcome.email, { name: shopName, backend: shopBackend }, t)}</AlertTitle>
            <AlertDescription>
              {t('signIn.onlyCustomers', { shop: shopName })}{' '}
              <a href={registerUrl} className="font-medium underline underline-offset-4">
                {t('signIn.createAccount')}
              </a>
            </AlertDescription>
          </Alert>
        ) : null}
        {outcome?.kind === 'error' ? (
          <Alert variant="destructive">
            <AlertDescription>{serverText(lang, outcome.message)}</AlertDescription>
          </Alert>
        ) : null}

        <form ref={form} onSubmit={submit} noValidate className={outcome?.kind === 'sent' ? 'hidden' : 'flex flex-col gap-3'}>
          <div className="flex flex-col gap-2">
            <Label htmlFor="email">{t('signIn.emailLabel')}</Label>
            <Input
              ref={emailField}
              id="email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              placeholder="you@example.com"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? 'email-error' : undefined}
              required
            />
            {invalid ? (
              <p id="email-error" className="text-sm font-medium text-destructive">
                {t('signIn.invalidEmail')}
              </p>
            ) : null}
          </div>
          <Button type="submit" disabled={busy || !hydrated} className="w-full">
            {busy ? <Spinner size="sm" label={t('signIn.signingIn')} /> : null}
            {t('signIn.continue')}
          </Button>
        </form>
      </CardContent>
      <CardFooter className="text-xs text-muted-foreground">
        <p>
          {t('signIn.agreeBefore')}{' '}
          <a href="/terms" className="underline underline-offset-4">
            {t('footer.terms')}
          </a>{' '}
          {t('signIn.and')}{' '}
          <a href="/privacy" className="underline underline-offset-4">
            {t('footer.privacy')}
          </a>
          {t('signIn.agreeAfter')}
        </p>
      </CardFooter>
    </Card>
  );
}
