'use client';

import { Loader2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ProfileDetails } from '#api/modules/auth/model.ts';
import { LANGUAGE_NAMES, LANGUAGES, PHONE_MAX_LENGTH, PROFILE_FIELD_LABELS, type Language } from '#api/modules/users/rules.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';
import { LANGUAGE_OWN_NAMES } from '#src/i18n/t.ts';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { NativeSelect, NativeSelectOption } from '#src/components/ui/select.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { apiCall } from '#src/lib/api-client.ts';

/** The customer's WhatsApp updates: their number, the opt-in and the language messages come in. */
export function WhatsAppSettings({ profile }: { profile: Pick<ProfileDetails, 'phone' | 'whatsapp' | 'language'> }) {
  const { lang, t } = useTexts();
  const [phone, setPhone] = useState(profile.phone ?? '');
  const [whatsapp, setWhatsapp] = useState(profile.whatsapp);
  const [language, setLanguage] = useState<Language>(profile.language);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setPending(true);
    setError(null);
    setSaved(null);
    const result = await apiCall<ProfileDetails>('/api/profile', { method: 'PUT', body: { phone: phone.trim() || null, whatsapp, language } });
    setPending(false);
    if (!result.ok || !result.data) return setError(result.error ?? t('whatsapp.failed'));
    setPhone(result.data.phone ?? '');
    setWhatsapp(result.data.whatsapp);
    setLanguage(result.data.language);
    setSaved(result.data.whatsapp ? t('whatsapp.savedOn', { phone: result.data.phone ?? '' }) : t('whatsapp.savedOff'));
  };

  return (
    <Card className="max-w-xl" data-testid="whatsapp-settings">
      <CardHeader>
        <CardTitle>{t('whatsapp.title')}</CardTitle>
        <CardDescription>{t('whatsapp.intro')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-4" onSubmit={save} noValidate>
          <div className="flex flex-col gap-2">
            <Label htmlFor="whatsapp-phone">{t('profile.phone')}</Label>
            <Input
              id="whatsapp-phone"
              type="tel"
              inputMode="tel"
              autoComplete="tel"
              placeholder="98765 43210"
              maxLength={PHONE_MAX_LENGTH}
              value={phone}
              aria-invalid={error?.startsWith(PROFILE_FIELD_LABELS.phone) ? true : undefined}
              aria-describedby="whatsapp-phone-hint"
              onChange={(e) => setPhone(e.target.value)}
            />
            <p id="whatsapp-phone-hint" className="text-sm text-muted-foreground">
              {t('whatsapp.phoneHint')}
            </p>
          </div>
          <div className="flex items-center gap-3">
            <Switch id="whatsapp-opt-in" checked={whatsapp} onCheckedChange={setWhatsapp} />
            <Label htmlFor="whatsapp-opt-in">{t('whatsapp.optIn')}</Label>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="whatsapp-language">{t('profile.language')}</Label>
            <NativeSelect id="whatsapp-language" wrapperClassName="sm:w-56" value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
              {LANGUAGES.map((code) => (
                <NativeSelectOption key={code} value={code} lang={code}>
                  {lang === 'en' ? LANGUAGE_NAMES[code] : LANGUAGE_OWN_NAMES[code]}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription>{serverText(lang, error)}</AlertDescription>
            </Alert>
          ) : null}
          <p role="status" className="text-sm text-muted-foreground empty:hidden">
            {saved}
          </p>
          <Button type="submit" className="sm:self-start" disabled={pending}>
            {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
            {t('whatsapp.save')}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
