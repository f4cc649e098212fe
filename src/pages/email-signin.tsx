import { unstable_redirect as redirect } from 'waku/router/server';
import type { PageProps } from 'waku/router';
import { SignInForm } from '#src/components/auth/sign-in-form.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import { publicSettings } from '#src/lib/host.server.ts';
import { currentUser } from '#src/lib/session.server.ts';

export default async function EmailSignInPage({ query }: PageProps<'/email-signin'>) {
  if (await currentUser()) redirect('/dashboard');
  const next = new URLSearchParams(query).get('next') ?? undefined;
  const settings = publicSettings();
  const { t } = await pageTexts();
  return (
    <>
      <title>{`${t('signIn.pageTitle')} · SwapPoints`}</title>
      <div className="mx-auto max-w-md">
        <SignInForm next={next} registerUrl={settings.shopRegisterUrl} shopName={settings.shopName} shopBackend={settings.shopBackend} linkLimit={settings.signInLimitPerEmail} />
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
