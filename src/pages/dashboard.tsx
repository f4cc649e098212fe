import type { PageProps } from 'waku/router';
import { CreditCard } from '#src/components/credit/credit-card.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { api } from '#src/lib/api.server.ts';
import { pagePath, requireUser } from '#src/lib/session.server.ts';

interface Credit {
  creditAmount: number;
  currency: string;
}

export default async function DashboardPage({ path, query }: PageProps<'/dashboard'>) {
  const user = await requireUser(pagePath(path, query));
  const credit = await api<Credit>('/api/shopify/credit');
  return (
    <>
      <title>Your Dashboard · SwapPoints</title>
      <div className="flex flex-col gap-6">
        <div>
          <h1 className="text-2xl font-semibold tracking-tight">Your Dashboard</h1>
          <p className="text-sm text-muted-foreground">Signed in as {user.email}</p>
        </div>
        {credit.ok && credit.data ? (
          <CreditCard amount={credit.data.creditAmount} currency={credit.data.currency} email={user.email} />
        ) : (
          <Alert variant="destructive">
            <AlertDescription>{credit.error}</AlertDescription>
          </Alert>
        )}
      </div>
    </>
  );
}

export const getConfig = async () => ({ render: 'dynamic' }) as const;
