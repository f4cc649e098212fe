'use client';

import { Loader2, UserX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmAction } from '#src/components/common/confirm-action.tsx';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Button } from '#src/components/ui/button.tsx';
import { DELETE_ACCOUNT_CONFIRM } from '#api/modules/privacy/rules.ts';
import { apiCall } from '#src/lib/api-client.ts';

const DELETE_FAILED = 'Your account could not be deleted. Please try again later.';

/** 'Delete my account' behind a confirmation; once erased the session is gone, so it lands on the sign-in page. */
export function DeleteAccount() {
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <ConfirmAction
        trigger={
          <Button type="button" variant="outline" className="border-destructive/40 text-destructive hover:bg-destructive/10 hover:text-destructive">
            <UserX aria-hidden="true" />
            Delete my account
          </Button>
        }
        title="Delete your account?"
        description={DELETE_ACCOUNT_CONFIRM}
        cancelLabel="No, keep my account"
        confirmLabel={(pending) => (
          <>
            {pending ? <Loader2 aria-hidden="true" className="motion-safe:animate-spin" /> : null}
            Yes, delete my account
          </>
        )}
        run={() => {
          setError(null);
          return apiCall('/api/privacy/account', { method: 'DELETE' });
        }}
        onDone={() => {
          window.localStorage.removeItem('user');
          window.location.assign('/email-signin');
        }}
        failure={{ closeWith: (reason) => setError(reason ?? DELETE_FAILED) }}
      />
      {error ? (
        <Alert variant="destructive" className="basis-full">
          <AlertDescription>{error}</AlertDescription>
        </Alert>
      ) : null}
    </>
  );
}
