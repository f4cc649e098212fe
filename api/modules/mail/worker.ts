import type { Db } from '#api/db/connect.ts';
import type { Logger } from '#api/lib/log.ts';
import { drainOutbox } from './service.ts';
import type { Mailer, MailTransport } from './model.ts';

/** Serialises drains in this process: a kick during a drain runs one more drain after it. */
export function createMailer(db: Db, transport: MailTransport, log: Logger): Mailer {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    do {
      again = false;
      try {
        await drainOutbox(db, transport, log);
      } catch (error) {
        log.error('mail outbox drain failed', { error });
      }
    } while (again);
  };
  const flush = () => {
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => (running = null));
    return running;
  };
  return {
    transport,
    kick: () => void flush(),
    flush,
  };
}
