import nodemailer from 'nodemailer';
import type { MailEnvelope } from '#svc/auth';

/** A message as nodemailer's JSON transport renders it: the envelope's fields, addresses parsed. */
export interface SentMail {
  from: { address: string; name: string };
  to: { address: string; name: string }[];
  subject: string;
  text: string;
  html: string;
}

/**
 * A real nodemailer Transporter (the JSON transport: it renders the message and sends nothing) that
 * keeps each rendered message; `failWith` makes the next sends fail as a mail server would (an error, or one made from the message).
 */
export function recordingTransport(): { transport: ReturnType<typeof nodemailer.createTransport>; sent: SentMail[]; failWith(error: Error | ((message: MailEnvelope) => Error) | null): void; sentTo(address: string): SentMail[] } {
  const transport = nodemailer.createTransport({ jsonTransport: true });
  const sent: SentMail[] = [];
  let failure: Error | ((message: MailEnvelope) => Error) | null = null;
  const send = transport.sendMail.bind(transport) as (message: MailEnvelope) => Promise<{ message: string }>;
  transport.sendMail = (async (message: MailEnvelope) => {
    if (failure) throw typeof failure === 'function' ? failure(message) : failure;
    const info = await send(message);
    sent.push(JSON.parse(info.message) as SentMail);
    return info;
  }) as never;
  return {
    transport,
    sent,
    failWith: (error) => {
      failure = error;
    },
    sentTo: (address) => sent.filter((mail) => mail.to.some((to) => to.address === address)),
  };
}
