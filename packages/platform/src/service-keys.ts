/**
 * Who a process is, provably: each party — the gateway and each of the seven services — has an Ed25519 signing key
 * of its own (SERVICE_SIGNING_KEY: the 32-byte seed in base64; the replicas of one service share it) and knows every
 * party's public key (SERVICE_PUBLIC_KEYS: `gateway=<base64>,identity=<base64>,…`, the raw 32-byte keys). Public keys
 * are configuration, not secrets: a process that holds one service's key can sign only as that service.
 */
import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { ServiceNames, type RouteOwner } from '@puente/contracts';
import { ConfigError } from './config.ts';

/** A party that signs internal tokens: a service, or the gateway. */
export type Party = RouteOwner;
export const Parties: readonly Party[] = ['gateway', ...ServiceNames];

export interface ServiceKeys {
  /** The signing keys this process holds: its own (one process, one party), or every party's (embedded mode). */
  signing: ReadonlyMap<Party, KeyObject>;
  /** Every party's public key. */
  verifying: ReadonlyMap<Party, KeyObject>;
}

// The fixed DER prefixes of an Ed25519 key in PKCS#8 (private) and SPKI (public) form, before its 32 raw bytes.
const PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

const BASE64 = /^[A-Za-z0-9+/_-]{43}=?$/;
const isParty = (name: string): name is Party => (Parties as readonly string[]).includes(name);

function raw32(value: string): Buffer | null {
  return BASE64.test(value.trim()) ? Buffer.from(value.trim(), 'base64') : null;
}

/** A signing key from its base64 seed; the error names the setting, never the value. */
export function signingKeyFrom(value: string, setting = 'SERVICE_SIGNING_KEY'): KeyObject {
  const seed = raw32(value);
  if (!seed || seed.length !== 32) throw new ConfigError(`${setting} must be an Ed25519 key: 32 bytes in base64 (npm run secrets makes one)`);
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' });
}

function publicKeyFrom(value: string, party: string): KeyObject {
  const bytes = raw32(value);
  if (!bytes || bytes.length !== 32) throw new ConfigError(`SERVICE_PUBLIC_KEYS: the key of ${party} must be 32 bytes in base64`);
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, bytes]), format: 'der', type: 'spki' });
}

/** The base64 raw public key of a key object (private or public). */
export function publicKeyText(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key;
  return publicKey.export({ format: 'der', type: 'spki' }).subarray(SPKI_PREFIX.length).toString('base64');
}

/** `gateway=<base64>,identity=<base64>,…`: every party's public key, each listed once. */
export function publicKeysFrom(value: string): Map<Party, KeyObject> {
  const keys = new Map<Party, KeyObject>();
  for (const pair of value.split(',').map((s) => s.trim()).filter(Boolean)) {
    const i = pair.indexOf('=');
    const name = i > 0 ? pair.slice(0, i).trim() : '';
    if (!isParty(name)) throw new ConfigError(`SERVICE_PUBLIC_KEYS lists "${name || pair.slice(0, 20)}", which is not one of ${Parties.join(', ')}`);
    if (keys.has(name)) throw new ConfigError(`SERVICE_PUBLIC_KEYS lists ${name} twice`);
    keys.set(name, publicKeyFrom(pair.slice(i + 1), name));
  }
  const missing = Parties.filter((p) => !keys.has(p));
  if (missing.length > 0) throw new ConfigError(`SERVICE_PUBLIC_KEYS must list the public key of ${missing.join(', ')} (name=base64, comma-separated)`);
  return keys;
}

/** One process's keys from its settings: its own signing key, which must match the public key listed for it. */
export function serviceKeysFrom(self: Party, settings: { SERVICE_SIGNING_KEY: string; SERVICE_PUBLIC_KEYS: string }): ServiceKeys {
  const signing = signingKeyFrom(settings.SERVICE_SIGNING_KEY);
  const verifying = publicKeysFrom(settings.SERVICE_PUBLIC_KEYS);
  if (publicKeyText(verifying.get(self)!) !== publicKeyText(signing)) {
    throw new ConfigError(`SERVICE_SIGNING_KEY is not the key whose public half SERVICE_PUBLIC_KEYS lists for ${self}`);
  }
  return { signing: new Map([[self, signing]]), verifying };
}

/** A fresh key per party, as settings text: what the runners keep and `npm run secrets` prints. */
export function generateSigningKeys(): { signingKeys: Record<Party, string>; publicKeys: string } {
  const signingKeys = {} as Record<Party, string>;
  const listed: string[] = [];
  for (const party of Parties) {
    const { privateKey } = generateKeyPairSync('ed25519');
    signingKeys[party] = privateKey.export({ format: 'der', type: 'pkcs8' }).subarray(PKCS8_PREFIX.length).toString('base64');
    listed.push(`${party}=${publicKeyText(privateKey)}`);
  }
  return { signingKeys, publicKeys: listed.join(',') };
}

/** The public keys listed for the signing keys given (runners that keep signing keys derive this setting from them). */
export function publicKeysOf(signingKeys: Record<Party, string>): string {
  return Parties.map((p) => `${p}=${publicKeyText(signingKeyFrom(signingKeys[p], `the signing key of ${p}`))}`).join(',');
}

/** Every party's keys in one process (embedded mode, tests): each party still signs only with its own. */
export function keyringOf(signingKeys: Record<Party, string>): ServiceKeys {
  const signing = new Map(Parties.map((p) => [p, signingKeyFrom(signingKeys[p], `the signing key of ${p}`)] as const));
  return { signing, verifying: new Map(Parties.map((p) => [p, createPublicKey(signing.get(p)!)] as const)) };
}
