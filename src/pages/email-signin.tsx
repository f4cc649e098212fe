import { unstable_redirect as redirect } from 'waku/router/server';
import type { PageProps } from 'waku/router';
import { SignInForm } from '#src/components/auth/sign-in-form.tsx';
import { publicSettings } from '#src/lib/host.server.ts';
import { currentUser } from '#src/lib/session.server.ts';

export default async function EmailSignInPage({ query }: PageProps<'/email-signin'>) {
  if (await currentUser()) redirect('/dashboard');
  const next = new URLSearchParams(query).get('next') ?? undefined;
  return (
    <>
      <title>Sign in · SwapPoints</title>
      <div className="mx-auto max-w-md">
        <SignInForm next={next} registerUrl={publicSettings().shopRegisterUrl} />
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
