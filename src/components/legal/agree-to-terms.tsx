'use client';

import { useState } from 'react';
import { useRouter } from 'waku';
import { flash } from '#src/components/common/flash.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Spinner } from '#src/components/ui/spinner.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { apiCall } from '#src/lib/api-client.ts';

/** "I agree": records agreement to the version the banner showed, then the banner goes. */
export function AgreeToTerms({ version }: { version: string }) {
  const { lang, t } = useTexts();
  const router = useRouter();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="flex flex-col gap-2 sm:items-end">
      <Button
        type="button"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          setError(null);
          const result = await apiCall('/api/legal/agreement', { method: 'POST', body: { version } });
          setBusy(false);
          if (!result.ok) return setError(serverText(lang, result.error) ?? t('terms.failed'));
          flash(t('terms.thanks'));
          router.reload();
        }}
      >
        {busy ? <Spinner size="sm" label={t('terms.saving')} /> : null}
        {t('terms.agree')}
      </Button>
      {error ? (
        <p role="alert" className="text-sm text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
