/** The shapes of mail: what the context carries (Mailer) and what a transport sends; no implementation here. */

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string | null;
  link: string | null;
}

export interface MailTransport {
  readonly kind: 'log' | 'smtp';
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The outbox's sender in this process (created by createMailer in worker.ts). */
export interface Mailer {
  transport: MailTransport;
  /** Drain the outbox now (after enqueueing a message someone is waiting for). Never throws. */
  kick(): void;
  /** Drain until nothing is due; resolves when done. */
  flush(): Promise<void>;
}
