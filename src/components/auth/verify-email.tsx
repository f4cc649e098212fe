'use client';

import { CheckCircle2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Splash } from '#src/components/layout/splash.tsx';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { apiCall } from '#src/lib/api-client.ts';
import { EMAIL_FOR_SIGN_IN_KEY } from './sign-in-form.tsx';

const REDIRECT_DELAY_MS = 1500;

type State = { kind: 'verifying' } | { kind: 'welcome'; message: string } | { kind: 'failed'; message: string };

interface VerifyResponse {
  success?: boolean;
  message?: string;
  next?: string;
  user?: { uid: string; email: string };
}

/** Finishes the sign-in from the emailed link: the saved email and the link's token open a session. */
export function VerifyEmail() {
  const [state, setState] = useState<State>({ kind: 'verifying' });
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const token = new URLSearchParams(window.location.search).get('token') ?? '';
    // Keep the one-time token out of the history and of any later Referer.
    window.history.replaceState(null, '', '/verify-email');
    const email = window.localStorage.getItem(EMAIL_FOR_SIGN_IN_KEY);
    if (!email) {
      setState({ kind: 'failed', message: 'No email found. Please try signing in again.' });
      return;
    }
    void (async () => {
      const result = await apiCall<VerifyResponse>('/api/auth/verify-email', { method: 'POST', body: { email, token } });
      if (result.status === 0) return setState({ kind: 'failed', message: 'Network error: Please check your internet connection and try again.' });
      if (!result.ok) return setState({ kind: 'failed', message: result.error || 'Failed to verify email' });
      const body = result.data;
      if (!body) return setState({ kind: 'failed', message: 'Invalid response from server' });
      if (!body.success) return setState({ kind: 'failed', message: body.message || 'Failed to verify email' });
      if (!body.user?.uid) return setState({ kind: 'failed', message: 'Invalid response from server' });
      window.localStorage.removeItem(EMAIL_FOR_SIGN_IN_KEY);
      window.localStorage.setItem('user', JSON.stringify({ uid: body.user.uid, email: body.user.email }));
      setState({ kind: 'welcome', message: body.message ?? `Welcome back! Account found for ${email}. Redirecting to dashboard...` });
      const next = body.next?.startsWith('/') && !body.next.startsWith('//') ? body.next : '/dashboard';
      setTimeout(() => window.location.assign(next), REDIRECT_DELAY_MS);
    })();
  }, []);

  if (state.kind === 'verifying') return <Splash />;
  if (state.kind === 'welcome') {
    return (
      <Alert variant="success">
        <CheckCircle2 aria-hidden="true" />
        <AlertTitle>Signed in</AlertTitle>
        <AlertDescription>{state.message}</AlertDescription>
      </Alert>
    );
  }
  return (
    <div className="flex flex-col gap-4">
      <Alert variant="destructive">
        <AlertTitle>We could not sign you in</AlertTitle>
        <AlertDescription>{state.message}</AlertDescription>
      </Alert>
      <Button asChild variant="outline">
        <a href="/email-signin">Back to sign in</a>
      </Button>
    </div>
  );
}
