import { AlertTriangle, Mail } from 'lucide-react';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { errorMessage, errorVariant, ERROR_SCREENS, supportMailto, type FailedCall } from '#api/lib/error-screen.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { serverText } from '#src/i18n/server-text.ts';
import { t as translate, translator, type MessageKey } from '#src/i18n/t.ts';
import { RefreshButton } from './refresh.tsx';
import { SignOutButton } from './sign-out-button.tsx';

/**
 * The error screen for credit and profile failures: the variant's title, what went wrong, and its
 * two buttons (Try Again / Refresh reload the data, Contact Support mails SUPPORT_EMAIL, Sign Out).
 */
export function ErrorScreen({ failure, supportEmail, className, lang = 'en' }: { failure: FailedCall; supportEmail: string; className?: string; lang?: Language }) {
  const variant = errorVariant(failure);
  const screen = ERROR_SCREENS[variant];
  const t = translator(lang);
  return (
    <Card className={className} role="alert" data-testid="error-screen" data-variant={variant}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <AlertTriangle className="size-5" aria-hidden="true" />
          {t(`error.${variant}`)}
        </CardTitle>
        <CardDescription>{messageIn(failure, lang)}</CardDescription>
      </CardHeader>
      <CardContent className="text-sm text-muted-foreground">
        {t('error.stillAvailable')}
      </CardContent>
      <CardFooter className="flex-wrap">
        {screen.actions.map((action) => {
          const label = t(`error.${action}`);
          if (action === 'contact-support')
            return (
              <Button key={action} asChild variant="outline">
                <a href={supportMailto(supportEmail, variant)}>
                  <Mail aria-hidden="true" />
                  {label}
                </a>
              </Button>
            );
          if (action === 'sign-out') return <SignOutButton key={action} label={label} />;
          return <RefreshButton key={action} label={label} />;
        })}
      </CardFooter>
    </Card>
  );
}

/** The message under the title: the server's own error (in the page's language when it is one the API writes), else §8's fallback (errorMessage) in the page's language. */
function messageIn(failure: FailedCall, lang: Language): string {
  if (failure.error || lang === 'en') return serverText(lang, errorMessage(failure));
  const key: MessageKey = (() => {
    switch (errorVariant(failure)) {
      case 'shopify_user_not_found':
        return 'error.notFound';
      case 'connection_error':
        return failure.status === 0 ? 'error.noResponse' : 'error.connecting';
      case 'auth_error':
        return 'error.profile';
      default:
        return 'dashboard.loadFailed';
    }
  })();
  return translate(lang, key);
}
