import type { ReactNode } from 'react';

/** Only web, mail and same-site links: a `javascript:` or `data:` link in the owner's text is shown as text. */
function SafeLink({ href, children }: { href?: string; children?: ReactNode }) {
  if (!href || !/^(https?:|mailto:|\/(?!\/)|#)/i.test(href)) return <>{children}</>;
  return (
    <a href={href} className="font-medium text-primary underline underline-offset-4">
      {children}
    </a>
  );
}

const H1 = ({ children }: { children?: ReactNode }) => <h1 className="text-2xl font-semibold tracking-tight">{children}</h1>;
const H2 = ({ children }: { children?: ReactNode }) => <h2 className="mt-4 text-lg font-semibold">{children}</h2>;
const H3 = ({ children }: { children?: ReactNode }) => <h3 className="mt-2 font-semibold">{children}</h3>;
const Ul = ({ children }: { children?: ReactNode }) => <ul className="flex list-disc flex-col gap-1 pl-6">{children}</ul>;
const Ol = ({ children, start }: { children?: ReactNode; start?: number }) => (
  <ol start={start} className="flex list-decimal flex-col gap-1 pl-6">
    {children}
  </ol>
);

/**
 * Markdown rendered on the server with Bun's built-in parser (no dependency, nothing shipped to the
 * browser). Raw HTML in the text is not rendered: the owner's file is content, not markup.
 */
export function MarkdownText({ markdown }: { markdown: string }) {
  return (
    <div className="flex flex-col gap-3 leading-relaxed [&_p]:text-foreground" data-testid="markdown-text">
      {Bun.markdown.react(markdown, { a: SafeLink, h1: H1, h2: H2, h3: H3, ul: Ul, ol: Ol }, { noHtmlBlocks: true, noHtmlSpans: true }) as ReactNode}
    </div>
  );
}
