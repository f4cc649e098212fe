import { CheckCircle2 } from 'lucide-react';
import { NewExchangeForm } from './new-exchange-form.tsx';
import { BackLink } from './page-links.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx';

const NEXT_STEPS = [
  'Our team reviews your request.',
  'If approved, you get shipping instructions.',
  'Once the item is received and verified, credit is added to your account.',
  'Use the credit on your next purchase.',
];

/** The /exchange/new screen (the caller has checked the user is signed in). */
export function NewExchangeScreen() {
  return (
    <>
      <title>New Exchange Request · SwapPoints</title>
      <div className="mx-auto flex max-w-3xl flex-col gap-6">
        <div className="flex items-center gap-3">
          <BackLink to="/dashboard" label="Back to Dashboard" />
          <div>
            <h1 className="text-2xl font-semibold tracking-tight">New Exchange Request</h1>
            <p className="text-sm text-muted-foreground">Tell us about the product you want to trade in for store credit.</p>
          </div>
        </div>
        <Card>
          <CardContent>
            <NewExchangeForm />
          </CardContent>
        </Card>
        <Card className="gap-4 bg-accent/40">
          <CardHeader>
            <CardTitle>What happens next?</CardTitle>
            <CardDescription>From your request to store credit in four steps.</CardDescription>
          </CardHeader>
          <CardContent>
            <ol className="flex flex-col gap-3">
              {NEXT_STEPS.map((step) => (
                <li key={step} className="flex items-start gap-2 text-sm">
                  <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-primary" aria-hidden="true" />
                  {step}
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
      </div>
    </>
  );
}
