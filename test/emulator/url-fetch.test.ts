import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startEchoServer } from './helpers';

const CODE = `
function get(url, mute) {
  var r = UrlFetchApp.fetch(url, { muteHttpExceptions: !!mute, headers: { 'X-Api-Key': 'k' } });
  return { code: r.getResponseCode(), text: r.getContentText(), headers: r.getHeaders(), blob: r.getBlob().getDataAsString(), all: r.getAllHeaders()['content-type'] };
}
function post(url, method) {
  var r = UrlFetchApp.fetch(url, { method: method, contentType: 'application/json', payload: JSON.stringify({ cnpj: '01234567000189' }) });
  return JSON.parse(r.getContentText());
}
function form(url) { return JSON.parse(UrlFetchApp.fetch(url, { method: 'post', payload: { a: '1', b: 'ç' } }).getContentText()); }
function many(urls) { return UrlFetchApp.fetchAll(urls.map(function (u) { return { url: u, muteHttpExceptions: true }; })).map(function (r) { return r.getContentText(); }); }
function manyStrict(urls) { return UrlFetchApp.fetchAll(urls).length; }
`;

let server: { base: string; stop: () => void };
beforeAll(async () => {
  server = await startEchoServer();
});
afterAll(() => server.stop());

describe('UrlFetchApp over real HTTP', () => {
  it('GET with headers; HTTPResponse accessors', () => {
    const emu = fixture(CODE);
    const out = emu.run('get', [`${server.base}/echo?x=1`]) as { code: number; text: string; headers: Record<string, string>; blob: string; all: string };
    expect(out.code).toBe(200);
    const echoed = JSON.parse(out.text);
    expect(echoed.method).toBe('GET');
    expect(echoed.headers['x-api-key']).toBe('k');
    expect(echoed.headers['user-agent']).toContain('Google-Apps-Script');
    expect(out.headers['x-echo-server']).toBe('yes');
    expect(out.blob).toBe(out.text);
    expect(out.all).toBe('application/json');
  });

  it.each(['post', 'put'])('%s sends the payload with the content type', (method) => {
    const out = fixture(CODE).run('post', [`${server.base}/echo`, method]) as { method: string; body: string; headers: Record<string, string> };
    expect(out.method).toBe(method.toUpperCase());
    expect(JSON.parse(out.body)).toEqual({ cnpj: '01234567000189' });
    expect(out.headers['content-type']).toBe('application/json');
  });

  it('an object payload is form-encoded', () => {
    const out = fixture(CODE).run('form', [`${server.base}/echo`]) as { body: string; headers: Record<string, string> };
    expect(out.body).toBe('a=1&b=%C3%A7');
    expect(out.headers['content-type']).toBe('application/x-www-form-urlencoded');
  });

  it('status >= 400 throws unless muteHttpExceptions', () => {
    const emu = fixture(CODE);
    const report = emu.execute('get', [`${server.base}/status/404`]);
    expect(report.error?.message).toMatch(
      new RegExp(`^Request failed for ${server.base}/status/404 returned code 404\\. Truncated server response: status 404`),
    );
    expect((emu.run('get', [`${server.base}/status/503`, true]) as { code: number }).code).toBe(503);
  });

  it('network failures throw like Apps Script', () => {
    const emu = fixture(CODE, { urlFetchTimeoutMs: 300 });
    expect(emu.execute('get', [`${server.base}/hang`]).error?.message).toBe(`Timeout: ${server.base}/hang`);
    expect(emu.execute('get', ['http://127.0.0.1:1/x']).error?.message).toBe('Address unavailable: http://127.0.0.1:1/x');
  });

  it('fetchAll is one concurrent wave, in request order', () => {
    const emu = fixture(CODE);
    const urls = Array.from({ length: 5 }, () => `${server.base}/barrier?n=5`);
    const report = emu.execute('many', [[...urls, `${server.base}/status/404`]]);
    expect(report.value).toEqual(['5', '5', '5', '5', '5', 'status 404']);
    expect(report.counters.urlFetchWaves).toBe(1);
    expect(report.counters.urlFetchRequests).toBe(6);
  });

  it('fetchAll throws if any request fails at the network level', () => {
    const emu = fixture(CODE, { urlFetchTimeoutMs: 300 });
    expect(emu.execute('manyStrict', [[`${server.base}/echo`, `${server.base}/hang`]]).error?.message).toBe(`Timeout: ${server.base}/hang`);
  });

  it('each wave costs virtual time and counts against the daily quota', () => {
    const emu = fixture(CODE, { costs: { urlFetchCallMs: 250, otherCallMs: 0, startupMs: 0 }, quotas: { urlFetchPerDay: 3 } });
    const report = emu.execute('many', [[`${server.base}/echo`, `${server.base}/echo`]]);
    expect(report.counters.virtualMs).toBe(250);
    expect(emu.execute('get', [`${server.base}/echo`]).status).toBe('ok');
    expect(emu.execute('get', [`${server.base}/echo`]).error?.message).toBe('Service invoked too many times for one day: urlfetch.');
  });
});
