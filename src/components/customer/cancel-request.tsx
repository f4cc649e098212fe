'use client';

import { Loader2, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useRouter } from 'waku';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { flash } from '#src/components/common/flash.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { apiCall } from '#src/lib/api-client.ts';

/** 'Cancel Request' with its confirmation; a cancelled request leaves for the dashboard, a failure closes the box and says why. */
export function CancelRequest({ requestId }: { requestId: string }) {
  const { lang, t } = useTexts();
  const router = useRouter();
  const [error, setError] = useState<string | null>(null);

  return (
    <div className="flex flex-col gap-3">
      {error ? (
        <Alert variant="destructive">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
      <ConfirmAction
        trigger={
          <Button type="button" variant="outline" className="border-destructive/40 text-destructive hover:bg-destructive/10 hover:text-destructive sm:self-start">
            <Trash2 aria-hidden="true" />
            {t('cancel.button')}
          </Button>
        }
        title={t('cancel.title')}
        description={t('cancel.body')}
        cancelLabel={t('cancel.keep')}
        confirmLabel={(pending) => (
          <>
            {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
            {t('cancel.confirm')}
          </>
        )}
        run={() => {
          setError(null);
          return apiCall(`/api/exchange/${encodeURIComponent(requestId)}`, { method: 'DELETE' });
        }}
        onDone={() => {
          flash(t('cancel.done'));
          return router.push('/dashboard');
        }}
        failure={{ closeWith: (reason) => setError(serverText(lang, reason) ?? t('cancel.failed')) }}
      />
    </div>
  );
}
