import type { Language } from '#api/modules/users/rules.ts';
import { t } from '#src/i18n/t.ts';

/** Whether the hint is showing (for the field's aria-describedby). */
export const lengthHintShown = (length: number, max: number) => length >= max * 0.8;

/**
 * A text field's limit, shown as it nears it: '180/200 characters'; at the limit, the API's own
 * sentence ('Name can be at most 200 characters.', tooLongMessage). Nothing while the text is
 * short. In `lang` (a customer's form), English by default (the admin's); `label` is the form's.
 */
export function LengthHint({ id, label, length, max, lang = 'en' }: { id: string; label: string; length: number; max: number; lang?: Language }) {
  if (!lengthHintShown(length, max)) return null;
  return (
    <p id={id} className={length >= max ? 'text-xs font-medium text-warning' : 'text-xs text-muted-foreground'} aria-live="polite" data-testid="length-hint">
      {length >= max ? t(lang, 'field.tooLong', { label, max }) : t(lang, 'field.count', { length, max })}
    </p>
  );
}
