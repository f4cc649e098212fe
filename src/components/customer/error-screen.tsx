import { AlertTriangle, Mail } from 'lucide-react';
import { Button } from '#src/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx';
import { ACTION_LABELS, ERROR_SCREENS, errorMessage, errorVariant, supportMailto, type FailedCall } from '#api/lib/error-screen.ts';
import { RefreshButton } from './refresh.tsx';
import { SignOutButton } from './sign-out-button.tsx';

/**
 * The error screen for credit and profile failures: the variant's title, what went wrong, and its
 * two buttons (Try Again / Refresh reload the data, Contact Support mails SUPPORT_EMAIL, Sign Out).
 */
export function ErrorScreen({ failure, supportEmail, className }: { failure: FailedCall; supportEmail: string; className?: string }) {
  const variant = errorVariant(failure);
  const screen = ERROR_SCREENS[variant];
  return (
    <Card className={className} role="alert" data-testid="error-screen" data-variant={variant}>
      <CardHeader>
        <CardTitle className="flex items-center gap-2 text-destructive">
          <AlertTriangle className="size-5" aria-hidden="true" />
          {screen.title}
        </CardTitle>
        <CardDescription>{errorMessage(failure)}</CardDescription>
      </CardHeader>
      <CardContent className="text-sm text-muted-foreground">
        Your exchange requests are still available. If this keeps happening, contact our support team.
      </CardContent>
      <CardFooter className="flex-wrap">
        {screen.actions.map((action) => {
          const label = ACTION_LABELS[action];
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
