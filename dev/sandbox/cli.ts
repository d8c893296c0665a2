/**
 * npm run sandbox -- --port 8787 --seed 1 --size small|medium|large [--page-base 0|1] [--office 30 [--invoices 8]]
 * Runs the sandbox in the foreground (this process) and prints how to reach it.
 */
import { parseArgs } from 'node:util';
import { createSandboxServer } from './server.js';
import type { SizeName } from './types.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8787' },
    host: { type: 'string', default: '127.0.0.1' },
    seed: { type: 'string', default: '1' },
    size: { type: 'string', default: 'small' },
    'page-base': { type: 'string', default: '1' },
    office: { type: 'string', default: '0' },
    invoices: { type: 'string' },
  },
});

const size = values.size as SizeName;
if (!['small', 'medium', 'large'].includes(size)) throw new Error(`--size must be small, medium or large`);
const started = performance.now();
const sandbox = createSandboxServer({
  seed: Number(values.seed),
  size,
  config: { pageBase: values['page-base'] === '0' ? 0 : 1 },
  office: { companies: Number(values.office), ...(values.invoices ? { invoices: Number(values.invoices) } : {}) },
});
const port = await sandbox.listen(Number(values.port), values.host);
console.log(`Billing API v2 sandbox (seed ${values.seed}, size ${size}) ready in ${Math.round(performance.now() - started)} ms`);
console.log(`Base URL: http://${values.host}:${port}   (API paths start with /v2; controls under /__sandbox/)`);
console.log('Organizations (header x-api-key):');
for (const o of sandbox.state.defs) {
  const about = o.office
    ? `   (office number ${o.office.number}: ${o.office.status}${o.revoked ? ', key revoked: 401' : ''})`
    : o.hasCityHallIntegration
      ? ''
      : '   (no city-hall integration)';
  console.log(`  ${o.name.padEnd(40)} ${o.apiKey}${about}`);
  for (const key of o.otherKeys ?? []) console.log(`  ${''.padEnd(40)} ${key}   (a second key of the same organization)`);
}
const shutdown = () => void sandbox.close().finally(() => process.exit(0));
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);
