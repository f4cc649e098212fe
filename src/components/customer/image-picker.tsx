'use client';

import { ImagePlus, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Alert, AlertDescription } from '#src/components/ui/alert.tsx';
import { Progress } from '#src/components/ui/progress.tsx';
import { uploadImage, type UploadedImage } from '#src/lib/api-client.ts';
import { cn } from '#src/lib/cn.ts';
import { checkImageFile, MAX_IMAGES_PER_REQUEST } from '#api/modules/images/rules.ts';
import { tooManyImagesMessage } from '#src/lib/requests.ts';
import { prepareImage } from '#src/lib/resize-image.ts';
import { useTexts } from '#src/i18n/language-provider.tsx';
import { serverText } from '#src/i18n/server-text.ts';

export interface PickedImage {
  key: string;
  name: string;
  preview: string;
  progress: number;
  /** set once the upload succeeded */
  uploaded: UploadedImage | null;
  abort: () => void;
}

let nextKey = 0;

/**
 * Product photos: each picked file is checked (an image; over 5MB or 2,560 px it is scaled down
 * first, then checked again) and uploaded at once, with its
 * progress; thumbnails can be removed; at most 5, and the control is disabled at 5 or while a
 * file uploads. `onChange` gets the list whenever it changes.
 */
export function ImagePicker({
  images,
  onChange,
  disabled = false,
  invalid = false,
}: {
  images: PickedImage[];
  onChange: (update: (images: PickedImage[]) => PickedImage[]) => void;
  disabled?: boolean;
  invalid?: boolean;
}) {
  const { lang, t } = useTexts();
  const [errors, setErrors] = useState<string[]>([]);
  const removed = useRef(new Set<string>());
  const uploading = images.some((image) => !image.uploaded);
  const full = images.length >= MAX_IMAGES_PER_REQUEST;

  // Free the previews' object URLs when the form goes away.
  const latest = useRef(images);
  latest.current = images;
  useEffect(() => () => latest.current.forEach((image) => URL.revokeObjectURL(image.preview)), []);

  const drop = (key: string, error: string | null) => {
    onChange((list) => {
      const gone = list.find((i) => i.key === key);
      if (gone) URL.revokeObjectURL(gone.preview);
      return list.filter((i) => i.key !== key);
    });
    // An upload removed by the customer was aborted on purpose: nothing to report.
    if (error !== null && !removed.current.has(key)) setErrors((e) => [...e, error]);
  };

  /** Scales a large photo down first (resize-image.ts), then uploads it; the bar shows from the start. */
  const send = async (key: string, file: File, control: { abort: () => void }) => {
    const prepared = await prepareImage(file);
    if (removed.current.has(key)) return;
    const problem = checkImageFile(prepared);
    if (problem) return drop(key, serverText(lang, problem));
    const upload = uploadImage(prepared, (progress) => onChange((list) => list.map((i) => (i.key === key ? { ...i, progress } : i))));
    control.abort = upload.abort;
    const result = await upload.result;
    if (result.ok && result.data) {
      const uploaded = result.data;
      onChange((list) => list.map((i) => (i.key === key ? { ...i, progress: 100, uploaded } : i)));
      return;
    }
    drop(key, serverText(lang, result.error) ?? t('images.uploadFailed'));
  };

  const pick = (files: File[]) => {
    const room = MAX_IMAGES_PER_REQUEST - images.length;
    const problems: string[] = [];
    const accepted: PickedImage[] = [];
    const extra = files.length - Math.max(0, room);
    if (extra > 0) problems.push(tooManyImagesMessage(extra, lang));
    for (const file of files.slice(0, Math.max(0, room))) {
      // Only the type here: a photo over the size limit is scaled down before it is checked again.
      const problem = checkImageFile({ name: file.name, size: 0, type: file.type });
      if (problem) {
        problems.push(serverText(lang, problem));
        continue;
      }
      const key = `image-${nextKey++}`;
      const control = { abort: () => {} };
      accepted.push({ key, name: file.name, preview: URL.createObjectURL(file), progress: 0, uploaded: null, abort: () => control.abort() });
      void send(key, file, control);
    }
    setErrors(problems);
    if (accepted.length) onChange((list) => [...list, ...accepted]);
  };

  const remove = (key: string) => {
    const image = images.find((i) => i.key === key);
    if (!image) return;
    removed.current.add(key);
    onChange((list) => list.filter((i) => i.key !== key));
    if (!image.uploaded) image.abort();
    URL.revokeObjectURL(image.preview);
  };

  const controlDisabled = disabled || full || uploading;

  // The control is disabled while files upload, which drops the keyboard's focus to the page: once
  // they are done, focus goes back to 'Add Photos' (unless the person has moved on to another field).
  const input = useRef<HTMLInputElement>(null);
  const returnFocus = useRef(false);
  useEffect(() => {
    if (uploading || controlDisabled || !returnFocus.current) return;
    returnFocus.current = false;
    const active = document.activeElement;
    if (!active || active === document.body || active === input.current) input.current?.focus({ preventScroll: true });
  }, [uploading, controlDisabled]);
  return (
    <fieldset className="flex flex-col gap-3" aria-describedby="images-hint images-count">
      <legend className="mb-2 text-sm font-medium">
        {t('images.legend')} <span className="text-destructive" aria-hidden="true">*</span>
      </legend>
      {images.length > 0 ? (
        <ul className="grid grid-cols-3 gap-3 sm:grid-cols-5" aria-label={t('images.chosen')}>
          {images.map((image, index) => (
            <li key={image.key} className="relative aspect-square overflow-hidden rounded-md border bg-muted" data-testid="picked-image">
              <img src={image.preview} alt={t('images.alt', { number: index + 1, name: image.name })} className="size-full object-cover" />
              {image.uploaded ? null : (
                <div className="absolute inset-x-0 bottom-0 bg-card/90 p-1.5">
                  <Progress value={image.progress} aria-label={t('images.uploadingOne', { name: image.name })} className="h-1.5" />
                </div>
              )}
              <button
                type="button"
                onClick={() => remove(image.key)}
                aria-label={t('images.remove', { number: index + 1, name: image.name })}
                className="absolute top-1 right-1 flex size-7 items-center justify-center rounded-full bg-slate-950/70 text-white outline-hidden hover:bg-slate-950 focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-1"
              >
                <X className="size-4" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <input
          id="product-images"
          type="file"
          accept="image/*"
          multiple
          disabled={controlDisabled}
          aria-invalid={invalid || undefined}
          className="peer sr-only"
          ref={input}
          onChange={(event) => {
            returnFocus.current = true;
            pick(Array.from(event.target.files ?? []));
            event.target.value = '';
          }}
        />
        <label
          htmlFor="product-images"
          className={cn(
            'inline-flex h-9 cursor-pointer items-center gap-2 rounded-md border border-input bg-card px-3 text-sm font-medium shadow-xs hover:bg-accent',
            'peer-focus-visible:ring-2 peer-focus-visible:ring-ring peer-focus-visible:ring-offset-2',
            'peer-disabled:cursor-not-allowed peer-disabled:opacity-50 peer-disabled:hover:bg-card',
            invalid && 'border-destructive',
          )}
        >
          <ImagePlus className="size-4" aria-hidden="true" />
          {t(uploading ? 'images.uploading' : 'images.add')}
        </label>
        <span id="images-count" className="text-sm text-muted-foreground tabular-nums" data-testid="images-count">
          {t('images.count', { count: images.length, max: MAX_IMAGES_PER_REQUEST })}
        </span>
      </div>
      <p id="images-hint" className="text-sm text-muted-foreground">
        {t('images.hint')}
      </p>
      {errors.length > 0 ? (
        <Alert variant="destructive">
          <AlertDescription>
            <ul className="flex flex-col gap-1">
              {errors.map((error, i) => (
                <li key={`${i}-${error}`}>{error}</li>
              ))}
            </ul>
          </AlertDescription>
        </Alert>
      ) : null}
    </fieldset>
  );
}
