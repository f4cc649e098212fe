import { readFileSync } from 'node:fs';

/** The clock ticks /proc counts CPU time in (USER_HZ, 100 on Linux). */
const CLOCK_TICKS = 100;

/**
 * CPU milliseconds (user + system) recorded in a /proc stat file: `/proc/<pid>/stat` for a whole
 * process, `/proc/<pid>/task/<pid>/stat` for its main thread, `/proc/thread-self/stat` for the
 * calling thread. The fields are counted after the command name, which may itself hold ') '.
 */
export function cpuMsFromStat(path: string): number {
  const stat = readFileSync(path, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
}
