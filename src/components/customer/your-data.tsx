import { Download } from 'lucide-react';
import type { Language } from '#api/modules/users/rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { translator } from '#src/i18n/t.ts';
import { DeleteAccount } from './delete-account.tsx';

/** The dashboard's "Your data": download everything held about you (a plain link: no script), or delete the account. */
export function YourData({ lang = 'en' }: { lang?: Language }) {
  const t = translator(lang);
  return (
    <section aria-labelledby="your-data" className="flex flex-col gap-3 rounded-xl border p-4">
      <div>
        <h2 id="your-data" className="text-lg font-semibold">{t('data.title')}</h2>
        <p className="text-sm text-muted-foreground">{t('data.intro')}</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline">
          <a href="/api/privacy/export" download>
            <Download aria-hidden="true" />
            {t('data.download')}
          </a>
        </Button>
        <DeleteAccount />
      </div>
    </section>
  );
}
