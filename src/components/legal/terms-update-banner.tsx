import { FileText } from 'lucide-react';
import type { TermsAgreement } from '#api/modules/auth/terms-model.ts';
import { AgreeToTerms } from '#src/components/legal/agree-to-terms.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import { textWith } from '#src/i18n/t.ts';
import { api } from '#src/lib/api.server.ts';

/**
 * Asks a signed-in person to agree again when the terms or privacy notice changed since they last
 * agreed (signing in records agreement to the version in force, so this shows only to sessions
 * opened before a change). Nothing when the agreement cannot be read: a page never fails for it.
 */
export async function TermsUpdateBanner() {
  const agreement = await api<TermsAgreement>('/api/legal/agreement');
  if (!agreement.ok || !agreement.data?.required) return null;
  const { t } = await pageTexts();
  return (
    <section aria-labelledby="terms-updated-title" className="border-b bg-info/5">
      <div className="mx-auto flex w-full max-w-6xl flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-3 text-sm">
          <FileText className="mt-0.5 size-4 shrink-0 text-info" aria-hidden="true" />
          <p>
            <strong id="terms-updated-title">{t('terms.updated')}</strong>{' '}
            {textWith(t('terms.read'), {
              terms: (
                <a href="/terms" className="underline underline-offset-4">
                  {t('footer.terms')}
                </a>
              ),
              privacy: (
                <a href="/privacy" className="underline underline-offset-4">
                  {t('footer.privacy')}
                </a>
              ),
            })}
          </p>
        </div>
        <AgreeToTerms version={agreement.data.currentVersion} />
      </div>
    </section>
  );
}
