// A stand-in for the App Store's signing: our own root CA, intermediate and leaf certificates with
// Apple's marker extensions (leaf 1.2.840.113635.100.6.11.1, intermediate 1.2.840.113635.100.6.2.1),
// made with openssl, and JWS signed with ES256 and an x5c chain as Apple signs App Store Server
// Notifications V2, so @apple/app-store-server-library verifies them unmodified.
import { execFileSync } from 'node:child_process';
import { createHmac, createSign, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface SigningChain {
  /** PEM of the root certificate, for --app-store-root-certs. */
  rootPem: string;
  rootFile: string;
  leafKeyPem: string;
  /** base64 DER of leaf, intermediate, root: the x5c header. */
  x5c: string[];
}

export interface ChainOptions {
  /** Leave the leaf's marker extension out. */
  leafWithoutMarker?: boolean;
  /** The leaf's validity ended a day ago. */
  expiredLeaf?: boolean;
}

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });

const derBase64 = (dir: string, pemFile: string) => {
  execFileSync('openssl', ['x509', '-in', pemFile, '-outform', 'DER', '-out', `${pemFile}.der`], { cwd: dir });
  return readFileSync(join(dir, `${pemFile}.der`)).toString('base64');
};

/** Creates a root, an intermediate and a leaf in a temporary folder; the root's PEM stays in rootFile. */
export function makeSigningChain(opts: ChainOptions = {}): SigningChain {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-appstore-'));
  const key = (name: string) => openssl(dir, ['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`]);
  for (const n of ['root', 'int', 'leaf']) key(n);
  /** Signs `name`.csr with the CA `ca` for ten years, with the extensions of section `ext`. */
  const issue = (name: string, ca: string, ext: string) =>
    openssl(dir, [
      'x509',
      '-req',
      '-in',
      `${name}.csr`,
      '-CA',
      `${ca}.pem`,
      '-CAkey',
      `${ca}.key`,
      '-CAcreateserial',
      '-days',
      '3650',
      '-extfile',
      'ext.cnf',
      '-extensions',
      ext,
      '-out',
      `${name}.pem`,
    ]);
  writeFileSync(
    join(dir, 'ext.cnf'),
    [
      '[root]',
      'basicConstraints=critical,CA:TRUE',
      'keyUsage=critical,keyCertSign,cRLSign',
      '[int]',
      'basicConstraints=critical,CA:TRUE',
      'keyUsage=critical,keyCertSign,cRLSign',
      '1.2.840.113635.100.6.2.1=ASN1:NULL',
      '[leaf]',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      '1.2.840.113635.100.6.11.1=ASN1:NULL',
      '[leafplain]',
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature',
      '',
    ].join('\n'),
  );
  openssl(dir, [
    'req',
    '-new',
    '-x509',
    '-key',
    'root.key',
    '-subj',
    '/CN=Test Root CA/O=gatehouse tests',
    '-days',
    '3650',
    '-config',
    'ext.cnf',
    '-extensions',
    'root',
    '-out',
    'root.pem',
  ]);
  openssl(dir, ['req', '-new', '-key', 'int.key', '-subj', '/CN=Test WWDR Intermediate/O=gatehouse tests', '-out', 'int.csr']);
  issue('int', 'root', 'int');
  openssl(dir, ['req', '-new', '-key', 'leaf.key', '-subj', '/CN=Test App Store Signing/O=gatehouse tests', '-out', 'leaf.csr']);
  const leafExt = opts.leafWithoutMarker ? 'leafplain' : 'leaf';
  if (opts.expiredLeaf) {
    // openssl x509 (3.0) cannot date a certificate in the past; openssl ca can (-startdate/-enddate).
    writeFileSync(join(dir, 'index.txt'), '');
    writeFileSync(join(dir, 'ca.serial'), '1000\n');
    const ca = [
      '[ca]',
      'default_ca=int',
      '[int]',
      'database=index.txt',
      'new_certs_dir=.',
      'serial=ca.serial',
      'default_md=sha256',
      'policy=any',
      '[any]',
      'commonName=supplied',
    ];
    writeFileSync(join(dir, 'ca.cnf'), `${ca.join('\n')}\n`);
    const dates = ['-startdate', '20200101000000Z', '-enddate', '20200201000000Z'];
    openssl(dir, [
      'ca',
      '-batch',
      '-config',
      'ca.cnf',
      '-cert',
      'int.pem',
      '-keyfile',
      'int.key',
      '-in',
      'leaf.csr',
      ...dates,
      '-extfile',
      'ext.cnf',
      '-extensions',
      leafExt,
      '-notext',
      '-out',
      'leaf.pem',
    ]);
  } else {
    issue('leaf', 'int', leafExt);
  }
  const chain: SigningChain = {
    rootPem: readFileSync(join(dir, 'root.pem'), 'utf8'),
    rootFile: '',
    leafKeyPem: readFileSync(join(dir, 'leaf.key'), 'utf8'),
    x5c: [derBase64(dir, 'leaf.pem'), derBase64(dir, 'int.pem'), derBase64(dir, 'root.pem')],
  };
  const keep = mkdtempSync(join(tmpdir(), 'gatehouse-appstore-root-'));
  chain.rootFile = join(keep, 'root.pem');
  writeFileSync(chain.rootFile, chain.rootPem);
  rmSync(dir, { recursive: true, force: true });
  return chain;
}

const b64url = (b: Buffer | string) => Buffer.from(b).toString('base64url');

/** A compact JWS over payload, ES256 with the chain in x5c, exactly as the App Store signs. */
export function signJws(chain: SigningChain, payload: object, header: Record<string, unknown> = {}): string {
  const head = b64url(JSON.stringify({ alg: 'ES256', x5c: chain.x5c, ...header }));
  const body = b64url(JSON.stringify(payload));
  const signer = createSign('SHA256');
  signer.update(`${head}.${body}`);
  // JWS carries ES256 signatures as r||s (RFC 7518 §3.4), not DER.
  const sig = signer.sign({ key: chain.leafKeyPem, dsaEncoding: 'ieee-p1363' });
  return `${head}.${body}.${b64url(sig)}`;
}

/** A JWS with alg none or HS256 (keyed by the leaf's PEM), the classic downgrade attempts. */
export function signWeak(chain: SigningChain, payload: object, alg: 'none' | 'HS256'): string {
  const head = b64url(JSON.stringify({ alg, x5c: chain.x5c }));
  const body = b64url(JSON.stringify(payload));
  if (alg === 'none') return `${head}.${body}.`;
  const mac = createHmac('sha256', chain.leafKeyPem).update(`${head}.${body}`).digest();
  return `${head}.${body}.${b64url(mac)}`;
}

export interface TransactionFields {
  bundleId: string;
  environment: 'Production' | 'Sandbox';
  productId: string;
  appAccountToken?: string;
  originalTransactionId?: string;
  transactionId?: string;
  purchaseDate?: number;
  expiresDate?: number;
  signedDate?: number;
}

/** The decoded JWSTransaction fields the App Store sends for an auto-renewable subscription. */
export function transactionPayload(t: TransactionFields) {
  const now = t.signedDate ?? Date.now();
  return {
    transactionId: t.transactionId ?? String(Math.floor(Math.random() * 1e15)),
    originalTransactionId: t.originalTransactionId ?? '1000000000000001',
    bundleId: t.bundleId,
    productId: t.productId,
    subscriptionGroupIdentifier: '21000001',
    purchaseDate: t.purchaseDate ?? now,
    originalPurchaseDate: t.purchaseDate ?? now,
    expiresDate: t.expiresDate ?? now + 30 * 86_400_000,
    quantity: 1,
    type: 'Auto-Renewable Subscription',
    appAccountToken: t.appAccountToken,
    inAppOwnershipType: 'PURCHASED',
    signedDate: now,
    environment: t.environment,
    transactionReason: 'PURCHASE',
    storefront: 'USA',
    storefrontId: '143441',
    price: 4990,
    currency: 'USD',
  };
}

export interface NotificationFields {
  notificationType: string;
  subtype?: string;
  bundleId: string;
  appAppleId?: number;
  environment: 'Production' | 'Sandbox';
  signedTransactionInfo?: string;
  signedRenewalInfo?: string;
  notificationUUID?: string;
  signedDate?: number;
}

/** A responseBodyV2DecodedPayload. */
export function notificationPayload(n: NotificationFields) {
  return {
    notificationType: n.notificationType,
    subtype: n.subtype,
    notificationUUID: n.notificationUUID ?? randomUUID(),
    version: '2.0',
    signedDate: n.signedDate ?? Date.now(),
    data: {
      appAppleId: n.appAppleId,
      bundleId: n.bundleId,
      bundleVersion: '1',
      environment: n.environment,
      signedTransactionInfo: n.signedTransactionInfo,
      signedRenewalInfo: n.signedRenewalInfo,
      status: 1,
    },
  };
}
