import { describe, expect, test } from 'bun:test';
import { isPrivateAddress, webhookUrlProblem } from '#api/modules/webhooks/rules.ts';

/** The IPv6 forms that carry an IPv4 address, each with an inside address and a public one (issue 25, point 9). */
const CARRIED = [
  // [form, carries a private or loopback IPv4, carries a public IPv4]
  ['IPv4-mapped ::ffff:0:0/96', '::ffff:127.0.0.1', '::ffff:203.0.113.10'],
  ['IPv4-mapped, hex', '::ffff:a00:1', '::ffff:cb00:710a'],
  ['IPv4-translated ::ffff:0:0:0/96', '::ffff:0:10.0.0.1', '::ffff:0:203.0.113.10'],
  ['NAT64 64:ff9b::/96', '64:ff9b::169.254.169.254', '64:ff9b::203.0.113.10'],
  ['6to4 2002::/16', '2002:a00:1::1', '2002:cb00:710a::1'],
  ['6to4 2002::/16, loopback relay', '2002:7f00:1:0:0:0:0:1', '2002:c633:6401::5'],
  // Teredo: server 203.0.113.1 (cb00:7101), client IPv4 = last 32 bits XOR ffff:ffff
  ['Teredo 2001::/32, client 10.0.0.1', '2001:0:cb00:7101:0:0:f5ff:fffe', '2001:0:cb00:7101:0:0:34ff:8ef5'],
  ['Teredo 2001::/32, client 127.0.0.1', '2001:0:cb00:7101::80ff:fffe', '2001:0:cb00:7101::3cff:9bfe'],
  ['Teredo 2001::/32, server 192.168.1.1', '2001:0:c0a8:101::34ff:8ef5', '2001:0:cb00:7101::34ff:8ef5'],
] as const;

describe('webhook addresses: IPv6 forms that carry an IPv4 address', () => {
  test.each(CARRIED)('%s: the carried address is checked (%s refused, %s allowed)', (_form, inside, outside) => {
    expect(isPrivateAddress(inside)).toBe(true);
    expect(isPrivateAddress(outside)).toBe(false);
    expect(webhookUrlProblem(`https://[${inside}]/hooks`, false)).toBe('Webhook URLs must not point to a private, loopback or link-local address.');
    expect(webhookUrlProblem(`https://[${outside}]/hooks`, false)).toBeNull();
  });

  test('NAT64 local-use 64:ff9b:1::/48 is refused whatever it carries (the network decides where the IPv4 address sits)', () => {
    for (const address of ['64:ff9b:1::cb00:710a', '64:ff9b:1:cb00:710a::', '64:ff9b:1::a00:1']) {
      expect(isPrivateAddress(address)).toBe(true);
      expect(webhookUrlProblem(`https://[${address}]/hooks`, false)).not.toBeNull();
    }
  });

  test('plain public IPv6 and IPv4 still pass; loopback, unspecified, unique-local, link-local and documentation do not', () => {
    for (const ok of ['2606:4700::1111', '2a00:1450:4001:81b::200e', '203.0.113.10', '2001:4860:4860::8888']) expect(isPrivateAddress(ok)).toBe(false);
    for (const bad of ['::1', '::', 'fd00::1', 'fe80::1', 'ff02::1', '2001:db8::1', '10.0.0.1']) expect(isPrivateAddress(bad)).toBe(true);
  });
});
