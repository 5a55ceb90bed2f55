// npm run site: the static site, one folder that any static host serves as it is, at its
// root or under any sub-path, with no server, Redis or PostgreSQL. It is the page the live
// server serves (web/dist, built by `npm run build`, every URL in it relative), plus:
// recordings/catalog.json, the scenarios from the server's registry, and a tag in its
// index.html that names that file (the page then opens no socket). Written to web/site/dist/
// (the site/dist/, inside web/ where the page's builds live; ignored like every dist/
// by git, lint and prettier), or to --out <folder>.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SITE_CATALOG_FILE } from '@racelab/shared';
import { loadCatalog } from '@racelab/server';
import { siteIndexHtml } from './indexHtml.js';
import { siteCatalogOf } from './siteCatalog.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const PAGE = join(ROOT, 'web/dist');
const { values } = parseArgs({ options: { out: { type: 'string', default: join(ROOT, 'web/site/dist') } } });
const out = resolve(values.out);

if (!existsSync(join(PAGE, 'index.html'))) throw new Error('web/dist has no index.html: run npm run build first');
const catalog = await loadCatalog();
rmSync(out, { recursive: true, force: true });
cpSync(PAGE, out, { recursive: true });
const recordings = join(out, 'recordings');
const site = siteCatalogOf(catalog.manifests, readFileSync(join(recordings, 'index.json'), 'utf8'), (file) =>
  readFileSync(join(recordings, file), 'utf8'),
);
writeFileSync(join(out, SITE_CATALOG_FILE), JSON.stringify(site));
writeFileSync(join(out, 'index.html'), siteIndexHtml(readFileSync(join(PAGE, 'index.html'), 'utf8')));
console.log(`${out}: ${site.scenarios.length} scenarios, ${site.recordings.length} recordings; serve the folder as it is, at any path`);
