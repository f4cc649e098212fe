import { tooLongMessage } from '#api/lib/text.ts';

/**
 * A text field's limit, shown as it nears it: '180/200 characters'; at the limit, the API's own
 * sentence ('Name can be at most 200 characters.'). Nothing while the text is short.
 */
/** Whether the hint is showing (for the field's aria-describedby). */
export const lengthHintShown = (length: number, max: number) => length >= max * 0.8;

export function LengthHint({ id, label, length, max }: { id: string; label: string; length: number; max: number }) {
  if (!lengthHintShown(length, max)) return null;
  return (
    <p id={id} className={length >= max ? 'text-xs font-medium text-warning' : 'text-xs text-muted-foreground'} aria-live="polite" data-testid="length-hint">
      {length >= max ? tooLongMessage(label, max) : `${length}/${max} characters`}
    </p>
  );
}
