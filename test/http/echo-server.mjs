// A tiny HTTP server in its own process: the test's thread is blocked during a
// synchronous fetch, so a server on that thread could never answer.
import http from 'node:http';

let inFlight = 0;
const waiting = [];

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    if (url.pathname === '/echo') {
      res.writeHead(200, { 'Content-Type': 'application/json', 'X-Echo-Server': 'yes' });
      res.end(JSON.stringify({ method: req.method, path: req.url, headers: req.headers, body }));
    } else if (url.pathname.startsWith('/status/')) {
      const code = Number(url.pathname.slice('/status/'.length));
      res.writeHead(code, { 'Content-Type': 'text/plain' });
      res.end(`status ${code}`);
    } else if (url.pathname === '/hang') {
      // Never answers; the client's time-out must fire.
    } else if (url.pathname === '/barrier') {
      // Holds each request until `n` are in flight at once (or a fallback
      // expires), then answers all with the peak it saw.
      const n = Number(url.searchParams.get('n'));
      inFlight += 1;
      const entry = { res, n };
      waiting.push(entry);
      const release = () => {
        const peak = inFlight;
        for (const w of waiting.splice(0)) {
          w.res.writeHead(200, { 'Content-Type': 'text/plain' });
          w.res.end(String(peak));
        }
        inFlight = 0;
      };
      if (inFlight >= n) release();
      else entry.timer = setTimeout(release, 3000);
    } else {
      res.writeHead(404);
      res.end('not found');
    }
  });
});

server.listen(0, '127.0.0.1', () => {
  process.send({ port: server.address().port });
});
process.on('disconnect', () => process.exit(0));
