'use client';

import { Languages } from 'lucide-react';
import { useState } from 'react';
import { LANGUAGE_COOKIE, LANGUAGES, type Language } from '#api/modules/users/rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { LANGUAGE_OWN_NAMES } from '#src/i18n/t.ts';
import { apiCall } from '#src/lib/api-client.ts';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The header's language switch: offers the other language. A signed-in customer's choice is saved
 * on the profile (PUT /api/profile); everyone's is kept in a cookie, so it also holds after signing
 * out. The page then loads again in the new language.
 */
export function LanguageSwitch({ signedIn }: { signedIn: boolean }) {
  const { lang, t } = useTexts();
  const [failed, setFailed] = useState(false);
  const [busy, setBusy] = useState(false);
  const other = LANGUAGES.find((l) => l !== lang) ?? 'en';

  async function switchTo(language: Language) {
    setBusy(true);
    setFailed(false);
    if (signedIn) {
      const saved = await apiCall('/api/profile', { method: 'PUT', body: { language } });
      if (!saved.ok) {
        setBusy(false);
        return setFailed(true);
      }
    }
    document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=${YEAR_SECONDS}; samesite=lax`;
    window.location.reload();
  }

  return (
    <>
      <Button
        type="button"
        variant="ghost"
        size="sm"
        lang={other}
        disabled={busy}
        aria-label={t('language.switchTo', { language: LANGUAGE_OWN_NAMES[other] })}
        onClick={() => void switchTo(other)}
        data-testid="language-switch"
        // between 600 and 1024 px a signed-in bar holds the whole nav; the language is then chosen on the dashboard's profile card
        className={signedIn ? 'min-[600px]:max-lg:hidden' : undefined}
      >
        <Languages aria-hidden="true" />
        {LANGUAGE_OWN_NAMES[other]}
      </Button>
      {failed ? (
        <p role="alert" className="sr-only">
          {t('language.failed')}
        </p>
      ) : null}
    </>
  );
}
