import { Flag } from 'lucide-react';
import { Link } from 'waku';
import type { RiskFlag } from '#api/modules/risk/model.ts';
import { duplicatePhotoSentence } from '#api/modules/risk/rules.ts';
import { requestReference } from '#api/modules/requests/reference.ts';
import { Alert, AlertDescription, AlertTitle } from '#src/components/ui/alert.tsx';

/** Why an admin should look closer at this request: each flag names the other request, linked. */
export function RiskFlags({ flags }: { flags: RiskFlag[] }) {
  if (flags.length === 0) return null;
  return (
    <Alert variant="warning" data-testid="risk-flags">
      <Flag aria-hidden="true" />
      <AlertTitle>Flagged for review</AlertTitle>
      <AlertDescription>
        <ul className="flex flex-col gap-1">
          {flags.map((flag) => {
            const reference = requestReference(flag.requestId);
            const [before] = duplicatePhotoSentence(reference).split(reference);
            return (
              <li key={`${flag.kind}:${flag.requestId}`}>
                {before}
                <Link to={`/admin/exchange/${flag.requestId}`} className="font-medium break-all underline underline-offset-4">
                  {reference}
                </Link>
              </li>
            );
          })}
        </ul>
      </AlertDescription>
    </Alert>
  );
}
