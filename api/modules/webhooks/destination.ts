import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress, webhookUrlProblem } from './rules.ts';

export const PRIVATE_ADDRESS = 'Webhook URLs must not point to a private, loopback or link-local address.';

/**
 * Where a webhook may go, decided on the addresses its host resolves to now (so a name that later
 * starts pointing inside the network is refused at delivery, not only when saved). Returns the
 * problem, or null when every address is public. With allowPrivate (development, tests) any http(s) URL goes.
 */
export async function destinationProblem(raw: string, allowPrivate: boolean): Promise<string | null> {
  const problem = webhookUrlProblem(raw, allowPrivate);
  if (problem || allowPrivate) return problem;
  const host = new URL(raw).hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isPrivateAddress(host) ? PRIVATE_ADDRESS : null;
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch (error) {
    return `The host ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'DNS error'}).`;
  }
  if (addresses.length === 0) return `The host ${host} could not be resolved.`;
  const inside = addresses.find((a) => isPrivateAddress(a.address));
  return inside ? `${PRIVATE_ADDRESS} (${host} resolves to ${inside.address})` : null;
}
