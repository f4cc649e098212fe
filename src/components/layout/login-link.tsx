'use client';

import { useRouter } from 'waku';
import { Button } from '#src/components/ui/button.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';

/** Pages that are themselves the sign-in: a Login button there would lead nowhere new. */
const SIGN_IN_PAGES = ['/email-signin', '/verify-email'];

/** The signed-out header's Login button, left out on the sign-in pages. */
export function LoginLink() {
  const { path } = useRouter();
  const { t } = useTexts();
  if (SIGN_IN_PAGES.includes(path)) return null;
  return (
    <Button asChild size="sm">
      <a href="/email-signin">{t('nav.login')}</a>
    </Button>
  );
}
