import { Card, CardContent } from '#src/components/ui/card.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import { host } from '#src/lib/host.server.ts';
import { legalTextFor, type LegalText } from '#src/lib/legal.server.ts';
import { MarkdownText } from './markdown-text.tsx';

/**
 * /terms and /privacy: the owner's text (as the owner wrote it), readable signed in or not; the title
 * in the reader's language, and the text too when a translation of the version in force is kept.
 */
export async function LegalPage({ which }: { which: LegalText }) {
  const { lang, t } = await pageTexts();
  const text = legalTextFor(host().settings, which, lang);
  return (
    <>
      <title>{`${t(which === 'terms' ? 'footer.terms' : 'footer.privacy')} · SwapPoints`}</title>
      <Card className="mx-auto max-w-3xl">
        <CardContent lang={text.lang}>
          {text.lang === lang ? null : (
            <p lang={lang} className="mb-3 rounded-md bg-muted px-3 py-2 text-sm" data-testid="legal-english-only">
              {t('legal.englishOnly')}
            </p>
          )}
          <MarkdownText markdown={text.markdown} />
        </CardContent>
      </Card>
    </>
  );
}
