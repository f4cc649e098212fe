import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { isPrivateAddress, webhookUrlProblem } from './rules.ts';

export const PRIVATE_ADDRESS = 'Webhook URLs must not point to a private, loopback or link-local address.';

/** Every address a host name resolves to now. Deliveries take it as a parameter; the DNS is outside our code. */
export type Resolve = (host: string) => Promise<readonly { address: string }[]>;
export const systemResolve: Resolve = (host) => lookup(host, { all: true, verbatim: true });

/** Where a delivery may connect: the problem, or the checked addresses, in the resolver's order. */
export type Destination = { problem: string; addresses?: undefined } | { problem: null; addresses: string[] };

const hostOf = (raw: string) => new URL(raw).hostname.replace(/^\[|\]$/g, '');

/**
 * Resolves the webhook's host once and checks every address it got (so a name that later starts
 * pointing inside the network is refused at delivery, not only when saved). The delivery connects
 * to these addresses and no others: resolving the name again for the connection would let a name
 * answer a public address to the check and a private one to the connection (DNS rebinding).
 * With allowPrivate (development, tests) any http(s) URL goes, still pinned to one resolution.
 */
export async function resolveDestination(raw: string, allowPrivate: boolean, resolve: Resolve = systemResolve): Promise<Destination> {
  const problem = webhookUrlProblem(raw, allowPrivate);
  if (problem) return { problem };
  const host = hostOf(raw);
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await resolve(host)).map((a) => a.address);
    } catch (error) {
      return { problem: `The host ${host} could not be resolved (${(error as NodeJS.ErrnoException).code ?? 'DNS error'}).` };
    }
    if (addresses.length === 0) return { problem: `The host ${host} could not be resolved.` };
  }
  const inside = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a));
  if (inside === undefined) return { problem: null, addresses };
  return { problem: inside === host ? PRIVATE_ADDRESS : `${PRIVATE_ADDRESS} (${host} resolves to ${inside})` };
}

/** The check made when an endpoint is saved: as at delivery, except that with allowPrivate nothing is resolved. */
export async function destinationProblem(raw: string, allowPrivate: boolean, resolve: Resolve = systemResolve): Promise<string | null> {
  if (allowPrivate) return webhookUrlProblem(raw, allowPrivate);
  return (await resolveDestination(raw, allowPrivate, resolve)).problem;
}
