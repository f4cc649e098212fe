import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';

/** A page's data did not load: the server's reason, or the page's own text when the server failed (5xx) or gave none. */
export function LoadFailedAlert({ result, fallback }: { result: { status: number; error: string | null }; fallback: string }) {
  return (
    <Alert variant="destructive">
      <AlertDescription>{result.status >= 500 ? fallback : (result.error ?? fallback)}</AlertDescription>
    </Alert>
  );
}
