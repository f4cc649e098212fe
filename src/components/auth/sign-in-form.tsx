'use client';

import { Info, MailCheck } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { Spinner } from '#src/components/ui/spinner.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { useHydrated } from '#src/lib/use-hydrated.ts';

export const EMAIL_FOR_SIGN_IN_KEY = 'emailForSignIn';

type Outcome =
  | { kind: 'sent'; email: string }
  | { kind: 'not-in-shop'; email: string }
  | { kind: 'error'; message: string };

/** The spec's messages for each way a sign-in can fail (§8). */
async function requestLink(email: string, next: string | undefined): Promise<Outcome> {
  const result = await apiCall<{ email: string }>('/api/auth/login', { method: 'POST', body: { email, ...(next ? { next } : {}) } });
  if (result.status === 202) return { kind: 'sent', email: result.data?.email ?? email };
  if (result.status === 0) return { kind: 'error', message: 'Network error: Please check your internet connection and try again.' };
  if (result.status === 422) return { kind: 'not-in-shop', email };
  if (result.status >= 500) {
    return { kind: 'error', message: 'Server error: The authentication service is currently unavailable. Please try again later.' };
  }
  return { kind: 'error', message: result.error || 'Failed to sign in. Please try again.' };
}

export function SignInForm({ next, registerUrl }: { next?: string; registerUrl: string }) {
  const [email, setEmail] = useState('');
  const [busy, setBusy] = useState(false);
  const [invalid, setInvalid] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const hydrated = useHydrated();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const trimmed = email.trim();
    if (!trimmed || !trimmed.includes('@')) {
      setInvalid(true);
      setOutcome(null);
      return;
    }
    setInvalid(false);
    setBusy(true);
    const result = await requestLink(trimmed, next);
    if (result.kind === 'sent') window.localStorage.setItem(EMAIL_FOR_SIGN_IN_KEY, result.email);
    setOutcome(result);
    setBusy(false);
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle as="h1" className="text-2xl">
          Sign in to SwapPoints
        </CardTitle>
        <CardDescription>Trade your used printer parts in for store credit.</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-col gap-4">
        <Alert variant="info">
          <Info aria-hidden="true" />
          <AlertDescription>You need a customer account at our shop to sign in. Use the email address of that account.</AlertDescription>
        </Alert>

        {outcome?.kind === 'sent' ? (
          <Alert variant="success">
            <MailCheck aria-hidden="true" />
            <AlertTitle>Check your email</AlertTitle>
            <AlertDescription>
              Account found for {outcome.email}. We&apos;ve emailed you a sign-in link.
            </AlertDescription>
          </Alert>
        ) : null}
        {outcome?.kind === 'not-in-shop' ? (
          <Alert variant="destructive">
            <AlertTitle>Email &quot;{outcome.email}&quot; is not found in our Shopify database.</AlertTitle>
            <AlertDescription>
              Only customers of our shop can trade items in. Create an account at our shop first, then sign in here with the
              same email.{' '}
              <a href={registerUrl} className="font-medium underline underline-offset-4">
                Create a shop account
              </a>
            </AlertDescription>
          </Alert>
        ) : null}
        {outcome?.kind === 'error' ? (
          <Alert variant="destructive">
            <AlertDescription>{outcome.message}</AlertDescription>
          </Alert>
        ) : null}

        <form onSubmit={submit} noValidate className="flex flex-col gap-3">
          <div className="flex flex-col gap-2">
            <Label htmlFor="email">Email address</Label>
            <Input
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
                Please enter a valid email address
              </p>
            ) : null}
          </div>
          <Button type="submit" disabled={busy || !hydrated} className="w-full">
            {busy ? <Spinner size="sm" label="Signing in" /> : null}
            Continue
          </Button>
        </form>
      </CardContent>
      <CardFooter className="text-xs text-muted-foreground">
        <p>
          By continuing you agree to our{' '}
          <a href="#terms" className="underline underline-offset-4">
            Terms of Service
          </a>{' '}
          and{' '}
          <a href="#privacy" className="underline underline-offset-4">
            Privacy Policy
          </a>
          .
        </p>
      </CardFooter>
    </Card>
  );
}
