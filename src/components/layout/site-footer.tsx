import type { Translate } from '#src/i18n/t.ts';

/** Every page's footer: the terms and the privacy policy, and how to reach the shop. */
export function SiteFooter({ supportEmail, t }: { supportEmail: string; t: Translate }) {
  return (
    <footer className="mx-auto w-full max-w-6xl px-4 pb-8 text-sm text-muted-foreground">
      <nav aria-label={t('footer.legal')} className="flex flex-wrap gap-x-4 gap-y-1 border-t pt-4">
        <a href="/terms" className="underline underline-offset-4 hover:text-foreground">
          {t('footer.terms')}
        </a>
        <a href="/privacy" className="underline underline-offset-4 hover:text-foreground">
          {t('footer.privacy')}
        </a>
        <a href={`mailto:${supportEmail}`} className="underline underline-offset-4 hover:text-foreground">
          {t('footer.contact', { email: supportEmail })}
        </a>
      </nav>
    </footer>
  );
}
