import { Card, CardContent } from '#src/components/ui/card.tsx';
import { host } from '#src/lib/host.server.ts';
import { legalMarkdown, type LegalText } from '#src/lib/legal.server.ts';
import { MarkdownText } from './markdown-text.tsx';

const TITLES: Record<LegalText, string> = { terms: 'Terms of Service', privacy: 'Privacy Policy' };

/** /terms and /privacy: the owner's text, readable signed in or not. */
export function LegalPage({ which }: { which: LegalText }) {
  return (
    <>
      <title>{`${TITLES[which]} · SwapPoints`}</title>
      <Card className="mx-auto max-w-3xl">
        <CardContent>
          <MarkdownText markdown={legalMarkdown(host().settings, which)} />
        </CardContent>
      </Card>
    </>
  );
}
