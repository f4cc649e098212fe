/**
 * Preloaded into a server a test looks inside (`bun --preload` this file, LOADED_MODULES_FILE set):
 * on SIGUSR2 the process writes every module it has loaded so far, one path a line, to that file.
 * Bun's require.cache holds the ES modules too. Nothing else in the process changes.
 */
import { renameSync, writeFileSync } from 'node:fs';

const out = process.env.LOADED_MODULES_FILE;
if (out) {
  process.on('SIGUSR2', () => {
    writeFileSync(`${out}.part`, Object.keys(require.cache).join('\n'));
    renameSync(`${out}.part`, out); // whole, or not there yet
  });
}
