/** Every page's footer: the terms and the privacy policy, and how to reach the shop. */
export function SiteFooter({ supportEmail }: { supportEmail: string }) {
  return (
    <footer className="mx-auto w-full max-w-6xl px-4 pb-8 text-sm text-muted-foreground">
      <nav aria-label="Legal" className="flex flex-wrap gap-x-4 gap-y-1 border-t pt-4">
        <a href="/terms" className="underline underline-offset-4 hover:text-foreground">
          Terms of Service
        </a>
        <a href="/privacy" className="underline underline-offset-4 hover:text-foreground">
          Privacy Policy
        </a>
        <a href={`mailto:${supportEmail}`} className="underline underline-offset-4 hover:text-foreground">
          Contact {supportEmail}
        </a>
      </nav>
    </footer>
  );
}
