/**
 * npm start [-- --port 8080] [--size small|medium] [--seed 1] [--office 30]
 *
 * The add-on in a browser against the sandbox: prints the URL and runs until Ctrl+C.
 */
import { startPlayground, type PlaygroundOptions } from './playground';

function usage(message: string): never {
  console.error(`${message}\nusage: npm start -- [--port N] [--size small|medium] [--seed N] [--org 0|1|2] [--office N]`);
  process.exit(2);
}

function parse(argv: string[]): PlaygroundOptions {
  const opts: PlaygroundOptions = { port: process.env.PORT ? Number(process.env.PORT) : 8080 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === '--port') opts.port = Number(value);
    else if (flag === '--size') opts.size = value as PlaygroundOptions['size'];
    else if (flag === '--seed') opts.seed = Number(value);
    else if (flag === '--org') opts.org = Number(value);
    else if (flag === '--office') opts.office = Number(value);
    else if (flag === '--help' || flag === '-h') usage('');
    else usage(`unknown option ${flag}`);
    i++;
  }
  if (!Number.isInteger(opts.port) || opts.port! < 0 || opts.port! > 65535) usage('--port: 0 to 65535');
  if (opts.size !== undefined && opts.size !== 'small' && opts.size !== 'medium') usage('--size: small or medium');
  if (opts.org !== undefined && ![0, 1, 2].includes(opts.org)) usage('--org: 0, 1 or 2');
  if (opts.office !== undefined && !(Number.isInteger(opts.office) && opts.office >= 0 && opts.office <= 200)) usage('--office: 0 to 200 companies');
  // An office of 30 client companies by default, for the Central do escritório; --office 0 leaves it out.
  opts.office ??= 30;
  return opts;
}

async function main(): Promise<void> {
  const opts = parse(process.argv.slice(2));
  console.log(`playground: starting the sandbox (${opts.size ?? 'small'}) and the add-on...`);
  const pg = await startPlayground(opts);
  if (opts.port && pg.port !== opts.port) console.log(`playground: port ${opts.port} is taken, using ${pg.port}`);
  console.log(`playground: sandbox at ${pg.sandbox.baseUrl}, demo connection "${pg.connectionName}"`);
  if (opts.office) console.log(`playground: an office of ${opts.office} client companies, each with its connection (Faturamento › Central do escritório)`);
  console.log(`\n  Open ${pg.url}\n\n  Ctrl+C stops it.`);
  const stop = () => {
    void pg.stop().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
