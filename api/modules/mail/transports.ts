import type { Transporter } from 'nodemailer';
import type { Logger } from '#api/lib/log.ts';
import type { Settings } from '#api/settings.ts';
import type { MailTransport } from './model.ts';

/** The default transport: the message (and its link) goes to the server log; the outbox keeps it. */
export function logTransport(log: Logger): MailTransport {
  return {
    kind: 'log',
    async send(mail) {
      log.info('mail', { to: mail.to, subject: mail.subject, link: mail.link ?? undefined });
      log.debug('mail body', { text: mail.text });
    },
    close() {},
  };
}

/** nodemailer (about 7 MB once loaded, bench:memory) is loaded by the first mail, not by a server that logs its mail. */
export function smtpTransport(url: string, from: string): MailTransport {
  let transporter: Promise<Transporter> | undefined;
  const open = () => (transporter ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(url, { from })));
  return {
    kind: 'smtp',
    async send(mail) {
      await (await open()).sendMail({ to: mail.to, subject: mail.subject, text: mail.text, ...(mail.html ? { html: mail.html } : {}) });
    },
    close: () => void transporter?.then((t) => t.close()),
  };
}

export function createMailTransport(settings: Settings, log: Logger): MailTransport {
  return settings.mailTransport === 'smtp' && settings.smtpUrl
    ? smtpTransport(settings.smtpUrl, settings.mailFrom)
    : logTransport(log);
}
