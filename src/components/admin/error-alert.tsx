import { CircleAlert } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';

/**
 * A failed call (spec §8): the spec's text for what failed, and the server's own `error` beneath it
 * when it sent one. Announced at once (role="alert").
 */
export function ErrorAlert({ fallback, error, className }: { fallback: string; error?: string | null; className?: string }) {
  const detail = error && error !== fallback ? error : null;
  return (
    <Alert variant="destructive" className={className}>
      <CircleAlert aria-hidden="true" />
      {detail ? (
        <>
          <AlertTitle>{fallback}</AlertTitle>
          <AlertDescription>{detail}</AlertDescription>
        </>
      ) : (
        <AlertDescription className="text-destructive">{fallback}</AlertDescription>
      )}
    </Alert>
  );
}

/** The server's `error` from a server-side `api()` result, or null when it sent none. */
export function serverError(result: { ok: boolean; error: string | null }): string | null {
  if (result.ok || !result.error || /^Request failed \(\d+\)$/.test(result.error)) return null;
  return result.error;
}
