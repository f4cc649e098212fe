import { CheckCircle2 } from 'lucide-react';
import { NewExchangeForm } from './new-exchange-form.tsx';
import { BackLink } from './page-links.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import type { MessageKey } from '#src/i18n/t.ts';

const NEXT_STEPS: MessageKey[] = ['new.step1', 'new.step2', 'new.step3', 'new.step4'];

/** The /exchange/new screen (the caller has checked the user is signed in). */
export async function NewExchangeScreen() {
  const { t } = await pageTexts();
  return (
    <>
      <title>{`${t('new.title')} · SwapPoints`}</title>
      <div className="mx-auto flex max-w-3xl flex-col gap-6">
        <div className="flex items-center gap-3">
          <BackLink to="/dashboard" label={t('list.back')} />
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">{t('new.title')}</h1>
            <p className="text-sm text-muted-foreground">{t('new.intro')}</p>
          </div>
        </div>
        <Card>
          <CardContent>
            <NewExchangeForm />
          </CardContent>
        </Card>
        <Card className="gap-4 bg-accent/40">
          <CardHeader>
            <CardTitle>{t('new.nextTitle')}</CardTitle>
            <CardDescription>{t('new.nextIntro')}</CardDescription>
          </CardHeader>
          <CardContent>
            <ol className="flex flex-col gap-3">
              {NEXT_STEPS.map((step) => (
                <li key={step} className="flex items-start gap-2 text-sm">
                  <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                  {t(step)}
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
