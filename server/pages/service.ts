// PagesService: the user's points page and its script and style, read once from disk.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AdminStore, requireRealm } from '../admin/store.ts';
import type { PageRequest__Output } from '../rpc/generated/gatehouse/v1/PageRequest.ts';
import type { ServiceImpl } from '../rpc/types.ts';

const DIR = join(dirname(fileURLToPath(import.meta.url)), 'user-points');
const asset = (file: string, contentType: string) => ({ contentType, data: readFileSync(join(DIR, file)) });

export function createPagesService(admin: AdminStore): ServiceImpl<'gatehouse.v1.PagesService'> {
  const page = asset('page.html', 'text/html; charset=utf-8');
  const script = asset('page.js', 'text/javascript; charset=utf-8');
  const style = asset('page.css', 'text/css; charset=utf-8');
  const serve = (body: { contentType: string; data: Buffer }) => async (req: PageRequest__Output) => {
    await requireRealm(admin, req.realmId);
    return body;
  };
  return {
    userPointsPage: serve(page),
    userPointsScript: serve(script),
    userPointsStyle: serve(style),
  };
}
