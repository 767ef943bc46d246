// PagesService: the user's points page and the admin console, their scripts and styles, read once
// from disk.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AdminStore, requireRealm } from '../admin/store.ts';
import { notFound } from '../errors.ts';
import type { ConsoleAssetRequest__Output } from '../rpc/generated/gatehouse/v1/ConsoleAssetRequest.ts';
import type { PageRequest__Output } from '../rpc/generated/gatehouse/v1/PageRequest.ts';
import type { ServiceImpl } from '../rpc/types.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const USER_POINTS = join(HERE, 'user-points');
const CONSOLE = join(HERE, 'console');
const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};
type Body = { contentType: string; data: Buffer };
const asset = (dir: string, file: string): Body => ({ contentType: CONTENT_TYPES[extname(file)]!, data: readFileSync(join(dir, file)) });

/** The console's scripts and style by file name: only what the folder holds, the shell excepted. */
function consoleAssets(): Map<string, Body> {
  const files = readdirSync(CONSOLE).filter((f) => f !== 'shell.html' && (f.endsWith('.js') || f.endsWith('.css')) && !f.endsWith('.test.js'));
  return new Map(files.map((f) => [f, asset(CONSOLE, f)]));
}

export function createPagesService(admin: AdminStore): ServiceImpl<'gatehouse.v1.PagesService'> {
  const page = asset(USER_POINTS, 'page.html');
  const script = asset(USER_POINTS, 'page.js');
  const style = asset(USER_POINTS, 'page.css');
  const shell = readFileSync(join(CONSOLE, 'shell.html'), 'utf8');
  const assets = consoleAssets();
  const serve = (body: Body) => async (req: PageRequest__Output) => {
    await requireRealm(admin, req.realmId);
    return body;
  };
  // The shell names its page and the console's absolute path (links and assets). The realm exists
  // (so it is a validated id: a-z, 0-9, _ and -), and is encoded all the same.
  const consolePage = (name: string) => async (req: PageRequest__Output) => {
    await requireRealm(admin, req.realmId);
    const html = shell.replaceAll('{{page}}', name).replaceAll('{{manage}}', `/${encodeURIComponent(req.realmId)}/manage`);
    return { contentType: CONTENT_TYPES['.html']!, data: Buffer.from(html) };
  };
  return {
    userPointsPage: serve(page),
    userPointsScript: serve(script),
    userPointsStyle: serve(style),
    consoleHome: consolePage('home'),
    consoleDefaultConfigPage: consolePage('default-config'),
    consoleMappingsPage: consolePage('entitlement-mappings'),
    consoleUsersPage: consolePage('users'),
    consoleWebhooksPage: consolePage('webhooks'),
    consoleAuditPage: consolePage('audit'),
    async consoleAsset(req: ConsoleAssetRequest__Output) {
      await requireRealm(admin, req.realmId);
      const body = assets.get(req.file);
      if (!body) throw notFound(`No console file ${req.file}`);
      return body;
    },
  };
}
