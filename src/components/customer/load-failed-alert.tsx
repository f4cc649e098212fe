import type { Language } from '#api/modules/users/rules.ts';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { serverText } from '#src/i18n/server-text.ts';

/** A page's data did not load: the server's reason (in the reader's language), or the page's own text when the server failed (5xx) or gave none. */
export function LoadFailedAlert({ result, fallback, lang = 'en' }: { result: { status: number; error: string | null }; fallback: string; lang?: Language }) {
  return (
    <Alert variant="destructive">
      <AlertDescription>{result.status >= 500 ? fallback : (serverText(lang, result.error) ?? fallback)}</AlertDescription>
    </Alert>
  );
}
