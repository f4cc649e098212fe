'use client';

import { Loader2, UserX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { apiCall } from '#src/lib/api-client.ts';

/** 'Delete my account' behind a confirmation; once erased the session is gone, so it lands on the sign-in page. */
export function DeleteAccount() {
  const { lang, t } = useTexts();
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <ConfirmAction
        trigger={
          <Button type="button" variant="outline" className="border-destructive/40 text-destructive hover:bg-destructive/10 hover:text-destructive">
            <UserX aria-hidden="true" />
            {t('data.delete')}
          </Button>
        }
        title={t('data.deleteTitle')}
        description={t('data.deleteBody')}
        cancelLabel={t('data.keep')}
        confirmLabel={(pending) => (
          <>
            {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
            {t('data.confirm')}
          </>
        )}
        run={() => {
          setError(null);
          return apiCall('/api/privacy/account', { method: 'DELETE' });
        }}
        onDone={() => {
          window.localStorage.removeItem('user');
          window.location.assign('/email-signin');
        }}
        failure={{ closeWith: (reason) => setError(serverText(lang, reason) ?? t('data.failed')) }}
      />
      {error ? (
        <Alert variant="destructive" className="basis-full">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
    </>
  );
}
