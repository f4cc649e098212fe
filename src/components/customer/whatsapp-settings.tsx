'use client';

import { Loader2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { ProfileDetails } from '#api/modules/auth/model.ts';
import { LANGUAGE_NAMES, LANGUAGES, PHONE_MAX_LENGTH, PROFILE_FIELD_LABELS, type Language } from '#api/modules/users/rules.ts';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { Input } from '#src/components/ui/input.tsx';
import { Label } from '#src/components/ui/label.tsx';
import { NativeSelect, NativeSelectOption } from '#src/components/ui/select.tsx';
import { Switch } from '#src/components/ui/switch.tsx';
import { apiCall } from '#src/lib/api-client.ts';

const SAVE_FAILED = 'Your WhatsApp settings could not be saved. Please try again.';

/** The customer's WhatsApp updates: their number, the opt-in and the language messages come in. */
export function WhatsAppSettings({ profile }: { profile: Pick<ProfileDetails, 'phone' | 'whatsapp' | 'language'> }) {
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
    if (!result.ok || !result.data) return setError(result.error ?? SAVE_FAILED);
    setPhone(result.data.phone ?? '');
    setWhatsapp(result.data.whatsapp);
    setLanguage(result.data.language);
    setSaved(result.data.whatsapp ? `Saved. WhatsApp updates go to ${result.data.phone}.` : 'Saved. You get no WhatsApp updates.');
  };

  return (
    <Card className="max-w-xl" data-testid="whatsapp-settings">
      <CardHeader>
        <CardTitle>WhatsApp updates</CardTitle>
        <CardDescription>Follow your trade-ins on WhatsApp as well as by email. Reply STOP on WhatsApp at any time to stop.</CardDescription>
      </CardHeader>
      <CardContent>
        <form className="flex flex-col gap-4" onSubmit={save} noValidate>
          <div className="flex flex-col gap-2">
            <Label htmlFor="whatsapp-phone">{PROFILE_FIELD_LABELS.phone}</Label>
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
              A 10-digit Indian mobile number, or + and the country code for another country.
            </p>
          </div>
          <div className="flex items-center gap-3">
            <Switch id="whatsapp-opt-in" checked={whatsapp} onCheckedChange={setWhatsapp} />
            <Label htmlFor="whatsapp-opt-in">Send me updates on WhatsApp</Label>
          </div>
          <div className="flex flex-col gap-2">
            <Label htmlFor="whatsapp-language">{PROFILE_FIELD_LABELS.language}</Label>
            <NativeSelect id="whatsapp-language" wrapperClassName="sm:w-56" value={language} onChange={(e) => setLanguage(e.target.value as Language)}>
              {LANGUAGES.map((code) => (
                <NativeSelectOption key={code} value={code} lang={code}>
                  {LANGUAGE_NAMES[code]}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          {error ? (
            <Alert variant="destructive">
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          ) : null}
          <p role="status" className="text-sm text-muted-foreground empty:hidden">
            {saved}
          </p>
          <Button type="submit" className="sm:self-start" disabled={pending}>
            {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
            Save WhatsApp settings
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
