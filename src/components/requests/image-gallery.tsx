'use client';

import { ChevronLeft, ChevronRight, ExternalLink } from 'lucide-react';
import { useCallback, useState, type KeyboardEvent } from 'react';
import { responsiveImage } from '#api/modules/images/rules.ts';
import { Button } from '#src/components/ui/button.tsx';
import { Dialog, DialogContent, DialogDescription, DialogTitle } from '#src/components/ui/dialog.tsx';
import type { Language } from '#api/modules/users/rules.ts';
import { translator } from '#src/i18n/t.ts';

/**
 * The request's photos as thumbnails; a click opens the full-screen viewer with previous/next,
 * 'Image i of n', the arrow keys to move and Escape to close.
 */
export function ImageGallery({ images, productName, lang = 'en' }: { images: { url: string; publicId: string }[]; productName: string; lang?: Language }) {
  const t = translator(lang);
  const [open, setOpen] = useState<number | null>(null);
  const count = images.length;
  const move = useCallback((by: number) => setOpen((i) => (i === null ? i : (i + by + count) % count)), [count]);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowRight') {
      event.preventDefault();
      move(1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      move(-1);
    }
  };

  if (count === 0) return <p className="text-sm text-muted-foreground">{t('gallery.none')}</p>;
  const current = open === null ? null : images[open];
  return (
    <>
      <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label={t('gallery.label')}>
        {images.map((image, index) => (
          <li key={image.publicId}>
            <button
              type="button"
              onClick={() => setOpen(index)}
              className="block aspect-square w-full overflow-hidden rounded-md border bg-muted outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2"
              aria-label={t('gallery.view', { number: index + 1, count })}
            >
              <img {...responsiveImage(image.url, '(min-width: 640px) 20vw, 33vw')} alt={t('gallery.alt', { product: productName, number: index + 1 })} loading="lazy" decoding="async" className="size-full object-cover transition-transform hover:scale-105" />
            </button>
          </li>
        ))}
      </ul>
      <Dialog open={open !== null} onOpenChange={(next) => (next ? null : setOpen(null))}>
        <DialogContent
          onKeyDown={onKeyDown}
          className="flex h-[100dvh] max-h-none w-screen max-w-none flex-col gap-3 rounded-none border-0 bg-slate-950 p-4 text-white sm:max-w-none [&_[data-slot=dialog-close]]:text-slate-100 [&_[data-slot=dialog-close]]:hover:bg-slate-800"
          closeButton="visible"
          closeLabel={t('common.close')}
        >
          <DialogTitle className="pr-10 text-base text-white">{productName}</DialogTitle>
          <DialogDescription className="text-slate-300" aria-live="polite" data-testid="viewer-position">
            {open === null ? '' : t('gallery.position', { number: open + 1, count })}
          </DialogDescription>
          <div className="relative flex min-h-0 flex-1 items-center justify-center">
            {current ? (
              <img {...responsiveImage(current.url, '100vw')} alt={t('gallery.alt', { product: productName, number: (open ?? 0) + 1 })} className="max-h-full max-w-full object-contain" />
            ) : null}
            {count > 1 ? (
              <>
                <Button type="button" variant="secondary" size="icon" className="absolute top-1/2 left-1 -translate-y-1/2 rounded-full" aria-label={t('gallery.previous')} onClick={() => move(-1)}>
                  <ChevronLeft aria-hidden="true" />
                </Button>
                <Button type="button" variant="secondary" size="icon" className="absolute top-1/2 right-1 -translate-y-1/2 rounded-full" aria-label={t('gallery.next')} onClick={() => move(1)}>
                  <ChevronRight aria-hidden="true" />
                </Button>
              </>
            ) : null}
          </div>
          {current ? (
            <a href={current.url} target="_blank" rel="noopener" className="inline-flex items-center gap-1 self-center text-sm text-slate-200 underline underline-offset-4 hover:text-white">
              {t('gallery.original')} <ExternalLink className="size-4" aria-hidden="true" />
            </a>
          ) : null}
        </DialogContent>
      </Dialog>
    </>
  );
}
