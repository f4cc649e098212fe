'use client';

import { Spinner } from '#src/components/ui/spinner.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';

/** The loading splash. */
export function Splash() {
  const { t } = useTexts();
  return (
    <div role="status" className="flex min-h-[50vh] flex-col items-center justify-center gap-3 text-muted-foreground">
      <Spinner size="lg" label="" />
      <p className="text-base">{t('layout.loading')}</p>
    </div>
  );
}
