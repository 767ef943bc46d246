// A self-signed certificate for a test's TLS server on loopback, made with openssl.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A P-256 key and a certificate for `name` valid a day, written to key.pem and cert.pem in `dir`
 *  (`altName`, e.g. "IP:127.0.0.2", as its subjectAltName when given). */
export function selfSignedCertificate(dir: string, name: string, altName?: string): { key: Buffer; cert: Buffer; certFile: string } {
  const extension = altName ? ['-addext', `subjectAltName=${altName}`] : [];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      ...extension,
      '-keyout',
      'key.pem',
      '-out',
      'cert.pem',
    ],
    { cwd: dir, stdio: 'ignore' },
  );
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')), certFile: join(dir, 'cert.pem') };
}
