import { contentTypeOfKey, type ImageStore } from '#api/integrations/images/index.ts';

export interface CopyReport {
  /** objects in the source store */
  total: number;
  copied: number;
  /** already in the target with the same size (an earlier run copied them) */
  skipped: number;
  bytesCopied: number;
  failed: { key: string; error: string }[];
}

/** Objects copied at once: enough to hide the round trips, few enough for a small machine. */
const PARALLEL = 4;

/**
 * Copies every object of `from` (uploads and variants) into `to`. Idempotent and safe to re-run
 * after an interruption: an object already in the target with the same size is skipped, and each
 * put is whole or nothing, so a stopped run leaves no half objects behind. A failed object is
 * reported and the rest go on. Nothing is removed from `from`.
 */
export async function copyImageStore(
  from: ImageStore,
  to: ImageStore,
  options: { onProgress?: (done: number, total: number) => void } = {},
): Promise<CopyReport> {
  const sources: { key: string; byteSize: number }[] = [];
  for await (const stored of from.list()) sources.push(stored);
  const present = new Map<string, number>();
  for await (const stored of to.list()) present.set(stored.key, stored.byteSize);

  const report: CopyReport = { total: sources.length, copied: 0, skipped: 0, bytesCopied: 0, failed: [] };
  let done = 0;
  let next = 0;
  const worker = async () => {
    while (next < sources.length) {
      const { key, byteSize } = sources[next++]!;
      try {
        if (present.get(key) === byteSize) {
          report.skipped++;
        } else {
          const object = await from.get(key);
          if (!object) throw new Error('removed from the source while copying');
          const bytes = new Uint8Array(await new Response(object.body).arrayBuffer());
          await to.put(key, bytes, contentTypeOfKey(key)!);
          report.copied++;
          report.bytesCopied += bytes.byteLength;
        }
      } catch (error) {
        report.failed.push({ key, error: error instanceof Error ? error.message : String(error) });
      }
      options.onProgress?.(++done, sources.length);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  report.failed.sort((a, b) => a.key.localeCompare(b.key));
  return report;
}
