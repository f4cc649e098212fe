import { Download } from 'lucide-react';
import { Button } from '#src/components/ui/button.tsx';
import { DeleteAccount } from './delete-account.tsx';

/** The dashboard's "Your data": download everything held about you (a plain link: no script), or delete the account. */
export function YourData() {
  return (
    <section aria-labelledby="your-data" className="flex flex-col gap-3 rounded-xl border p-4">
      <div>
        <h2 id="your-data" className="text-lg font-semibold">Your data</h2>
        <p className="text-sm text-muted-foreground">
          Download a copy of everything we hold about you (requests, photos, shipping details, credit and mails), or delete your account.
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href="/api/privacy/export" download>
            <Download aria-hidden="true" />
            Download my data
          </a>
        </Button>
        <DeleteAccount />
      </div>
    </section>
  );
}
