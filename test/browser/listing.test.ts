/**
 * The Marketplace listing's graphics (`npm run assets`) come out at Google's
 * sizes: icons of 32 and 128 px, a 220×140 banner and screenshots of 1280×800
 * from the playground in Chromium (one scene here, to keep it quick).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeListingAssets, pngSize } from '../../dev/listing/make';
import { usePlaygroundPage } from './helpers';

const t = usePlaygroundPage();
const out = mkdtempSync(join(tmpdir(), 'listing-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('the listing assets', () => {
  it('are made at the Marketplace sizes', async () => {
    const files = await makeListingAssets({ browser: t.browser, playground: t.pg, outDir: out, scenes: ['menu'] });
    const sizes = Object.fromEntries(files.map((f) => [basename(f), pngSize(readFileSync(f))]));
    expect(sizes).toEqual({
      'icon-32.png': { width: 32, height: 32 },
      'icon-128.png': { width: 128, height: 128 },
      'banner-220x140.png': { width: 220, height: 140 },
      'screenshot-1-menu.png': { width: 1280, height: 800 },
    });
  });
});
