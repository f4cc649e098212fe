import { Card, CardContent } from '#src/components/ui/card.tsx';
import { pageTexts } from '#src/i18n/language.server.ts';
import { host } from '#src/lib/host.server.ts';
import { legalMarkdown, type LegalText } from '#src/lib/legal.server.ts';
import { MarkdownText } from './markdown-text.tsx';

/** /terms and /privacy: the owner's text (as the owner wrote it), readable signed in or not; the title in the reader's language. */
export async function LegalPage({ which }: { which: LegalText }) {
  const { t } = await pageTexts();
  return (
    <>
      <title>{`${t(which === 'terms' ? 'footer.terms' : 'footer.privacy')} · SwapPoints`}</title>
      <Card className="mx-auto max-w-3xl">
        <CardContent>
          <MarkdownText markdown={legalMarkdown(host().settings, which)} />
        </CardContent>
      </Card>
    </>
  );
}
