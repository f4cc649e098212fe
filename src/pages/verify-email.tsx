import { unstable_redirect as redirect } from 'waku/router/server';
import { VerifyEmail } from '#src/components/auth/verify-email.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import { currentUser } from '#src/lib/session.server.ts';

/** Where the emailed sign-in link lands; the browser finishes the sign-in (the link's GET never consumes it). */
export default async function VerifyEmailPage() {
  // Someone already signed in (an old link, a second click) needs no error: they are in.
  if (await currentUser()) redirect('/dashboard');
  const { t } = await pageTexts();
  return (
    <>
      <title>{`${t('verify.pageTitle')} · SwapPoints`}</title>
      <meta name="referrer" content="no-referrer" />
      <div className="mx-auto max-w-md">
        <VerifyEmail />
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
