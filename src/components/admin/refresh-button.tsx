'use client';

import { RefreshCw } from 'lucide-react';
import { useTransition } from 'react';
import { useRouter } from 'waku';
import { Button } from '#src/components/ui/button.tsx';
import { Progress } from '#src/components/ui/progress.tsx';

/** Renders the page again on the server (fresh data), with a thin progress bar meanwhile. */
export function RefreshButton() {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  return (
    <>
      <Button
        type="button"
        variant="outline"
        size="sm"
        disabled={pending}
        onClick={() =>
          startTransition(async () => {
            await router.reload();
          })
        }
      >
        <RefreshCw aria-hidden="true" className={pending ? 'motion-safe:animate-spin' : undefined} />
        Refresh
      </Button>
      {pending ? <Progress className="fixed inset-x-0 top-14 z-40 h-1 rounded-none" aria-label="Refreshing" /> : null}
    </>
  );
}
