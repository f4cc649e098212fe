import { ImageOff } from 'lucide-react';
import { responsiveImage } from '#api/modules/images/rules.ts';
import type { Language } from '#api/modules/users/rules.ts';
import { t } from '#src/i18n/t.ts';
import { cn } from '#src/lib/cn.ts';

/** The request's first photo as a square thumbnail, or a placeholder when it has none. */
export function RequestThumbnail({
  images,
  productName,
  className,
  lang = 'en',
}: {
  images: { url: string }[];
  productName: string;
  className?: string;
  lang?: Language;
}) {
  const first = images[0];
  return (
    <span className={cn('flex size-16 shrink-0 items-center justify-center overflow-hidden rounded-md border bg-muted', className)}>
      {first ? (
        <img {...responsiveImage(first.url, '64px')} alt={productName} loading="lazy" decoding="async" className="size-full object-cover" />
      ) : (
        <ImageOff className="size-6 text-muted-foreground" aria-label={t(lang, 'images.none')} />
      )}
    </span>
  );
}
