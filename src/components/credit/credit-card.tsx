import { formatMoney } from '#api/lib/money.ts';
import { LANGUAGE_LOCALES, type Language } from '#api/modules/users/rules.ts';
import { t } from '#src/i18n/t.ts';

/** The upper-cased part of the email before '@', or VALUED CUSTOMER (in `lang`). */
export function holderName(email: string | null | undefined, lang: Language = 'en'): string {
  const local = (email ?? '').split('@')[0]?.trim();
  return local ? local.toUpperCase() : t(lang, 'card.holder');
}

/** The loyalty card: available store credit, the holder's name, and the card's footer. */
export function CreditCard({ amount, currency, email, lang = 'en' }: { amount: number; currency: string; email: string | null; lang?: Language }) {
  return (
    <section
      aria-labelledby="credit-card-title"
      className="relative flex aspect-[1.7/1] w-full max-w-sm flex-col justify-between overflow-hidden rounded-2xl bg-gradient-to-br from-teal-800 via-teal-700 to-emerald-900 p-5 text-white shadow-lg"
    >
      <div className="pointer-events-none absolute -top-16 -right-16 size-48 rounded-full bg-white/10" aria-hidden="true" />
      <div>
        <h2 id="credit-card-title" className="text-sm font-medium tracking-wide text-teal-50">
          {t(lang, 'credit.cardTitle')}
        </h2>
        <p className="mt-1 text-3xl font-bold tabular-nums" data-testid="credit-amount">
          {formatMoney(amount, currency, LANGUAGE_LOCALES[lang])}
        </p>
      </div>
      <p className="font-mono text-lg tracking-widest" data-testid="card-holder">
        {holderName(email, lang)}
      </p>
      <div className="flex items-end justify-between text-xs tracking-wider text-teal-50">
        <span>{t(lang, 'card.brand')}</span>
        <span>{t(lang, 'card.valid')}</span>
      </div>
    </section>
  );
}
