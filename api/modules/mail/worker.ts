import type { Db } from '#api/db/connect.ts';
import type { Logger } from '#api/lib/log.ts';
import { drainOutbox } from './service.ts';
import type { Mailer, MailTransport } from './model.ts';

/** Serialises drains in this process: a kick during a drain runs one more drain after it. */
export function createMailer(db: Db, transport: MailTransport, log: Logger): Mailer {
  let running: Promise<void> | null = null;
  let again = false;
  const run = async () => {
    for (;;) {
      again = false;
      try {
        await drainOutbox(db, transport, log);
      } catch (error) {
        log.error('mail outbox drain failed', { error });
      }
      // cleared here, in the same step as the last look at `again`: a kick that came after this
      // drain's last claim starts a new one instead of setting a flag nobody reads
      if (!again) {
        running = null;
        return;
      }
    }
  };
  const flush = () => {
    if (running) {
      again = true;
      return running;
    }
    running = run();
    return running;
  };
  return {
    transport,
    kick: () => void flush(),
    flush,
  };
}
